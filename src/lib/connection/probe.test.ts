import { describe, expect, it, vi } from "vitest";
import { lostProblem, probeOwnServer } from "./probe.ts";
import { probeRemote } from "./remote-probe.ts";

const settings = { url: "http://127.0.0.1:4180", token: "the-proxy-token-0123456789" };
const PAGE = "http://127.0.0.1:8080";
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const unreachable = () => Promise.reject(new TypeError("Failed to fetch"));

describe("probeOwnServer", () => {
  it("finds the proxy that serves the page, and its token", async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () => json(200, { token: "tok", maxBodyBytes: 1 }));
    expect(await probeOwnServer("http://127.0.0.1:4173/playground", fetchImpl)).toEqual({
      ok: true,
      token: "tok",
    });
    expect(String(fetchImpl.mock.calls[0]?.[0])).toBe("http://127.0.0.1:4173/playground/api/session");
  });

  it("finds none on a static host: a 404, an index page served for every path, or no answer", async () => {
    for (const answer of [
      async () => new Response("Not found", { status: 404 }),
      async () => new Response("<!doctype html>", { status: 200, headers: { "Content-Type": "text/html" } }),
      unreachable,
    ]) {
      const result = await probeOwnServer("http://docs.example/playground", answer);
      expect(result).toMatchObject({ ok: false, problem: { kind: "none" } });
      if (!result.ok) expect(result.problem.message).toMatch(/Mirror models run in this page/);
    }
  });

  it("passes on its own server's refusal, which says what to fix", async () => {
    const result = await probeOwnServer("http://x", async () =>
      json(403, { error: 'Refused: Host "x" is not this playground server.' }),
    );
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: "refused", message: expect.stringMatching(/Host "x"/) },
    });
  });
});

describe("probeRemote", () => {
  it("connects with the token it was given, sent as the Bearer token, which the proxy never hands back", async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () => json(200, { maxBodyBytes: 1 }));
    expect(await probeRemote(settings, PAGE, fetchImpl)).toEqual({ ok: true, token: settings.token });
    const init = fetchImpl.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get("Authorization")).toBe(`Bearer ${settings.token}`);
  });

  it("names a wrong token, with the proxy's own advice", async () => {
    const result = await probeRemote(settings, PAGE, async () =>
      json(401, { error: "Invalid proxy token: use the token this proxy printed when it started." }),
    );
    expect(result).toMatchObject({ ok: false, problem: { kind: "bad-token" } });
    if (!result.ok)
      expect(result.problem.message).toBe(
        "The proxy at http://127.0.0.1:4180 refused the token. Invalid proxy token: use the token this proxy printed when it started.",
      );
  });

  it("tells a proxy that refuses this origin from one that is not there", async () => {
    // Refused origin: the CORS request fails, but something answers the no-cors one.
    const refusing = vi.fn<typeof fetch>(async (_input, init) =>
      init?.mode === "no-cors" ? new Response(null, { status: 200 }) : unreachable(),
    );
    const refused = await probeRemote(settings, PAGE, refusing);
    expect(refused).toMatchObject({ ok: false, problem: { kind: "refused-origin" } });
    if (!refused.ok) expect(refused.problem.message).toContain(`ALLOWED_ORIGINS=${PAGE}`);

    const absent = await probeRemote(settings, PAGE, unreachable);
    expect(absent).toMatchObject({ ok: false, problem: { kind: "unreachable" } });
    if (!absent.ok) expect(absent.problem.message).toMatch(/^Nothing answers at http:\/\/127\.0\.0\.1:4180/);
  });

  it("says so when the address is some other server", async () => {
    const result = await probeRemote(settings, PAGE, async () => new Response("<html>", { status: 404 }));
    expect(result).toMatchObject({ ok: false, problem: { kind: "not-a-proxy" } });
    if (!result.ok)
      expect(result.problem.message).toMatch(
        /answered 404 to \/api\/session: it is not a pi playground proxy/,
      );
  });
});

describe("lostProblem", () => {
  const at = new Date(2026, 0, 2, 14, 5).getTime();

  it("says which proxy stopped, when, why if known, and that the offline models carry on", () => {
    const lost = lostProblem(
      "The proxy at http://127.0.0.1:4180",
      { kind: "unreachable", message: "Nothing answers there." },
      at,
    );
    expect(lost.kind).toBe("lost");
    expect(lost.message).toMatch(
      /^The proxy at http:\/\/127\.0\.0\.1:4180 stopped answering at (14:05|02:05 PM)\. Nothing answers there\. Meanwhile the offline Mirror models run in this page\.$/,
    );
  });

  it("keeps a refused token a token problem, and asks for a restart of the page's own server", () => {
    expect(lostProblem("x", { kind: "bad-token", message: "Refused." }, at).kind).toBe("bad-token");
    expect(lostProblem("This page's server", { kind: "none", message: "generic" }, at).message).toContain(
      "Start it again, then choose Reconnect.",
    );
  });
});
