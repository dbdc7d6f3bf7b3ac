import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type Fixture } from "../../e2e/fixtures/openai-fixture-server.mjs";
import { startStandaloneProxy, type StandaloneProxy } from "./standalone-proxy.ts";

/**
 * `npm run proxy` used by a page on another origin: CORS exactly as wide as ALLOWED_ORIGINS, the token on
 * every route for those pages, and everything else the proxy guarantees (Host against rebinding, limits,
 * keys never leaving) still holding. Real HTTP on loopback, with an OpenAI-compatible fixture upstream.
 */

const PAGE = "http://127.0.0.1:4519";
const TOKEN = "cross-origin-token-0123456789";
const KEY = "sk-cross-origin-fake-key-4242";

let fixture: Fixture;
let proxy: StandaloneProxy;
let port: number;

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function sendTo(
  targetPort: number,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: targetPort, path, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const send = (path: string, request: Parameters<typeof sendTo>[2] = {}) => sendTo(port, path, request);

const fromPage = (extra: Record<string, string> = {}) => ({
  Origin: PAGE,
  "Sec-Fetch-Site": "same-site",
  Authorization: `Bearer ${TOKEN}`,
  ...extra,
});
const streamBody = (provider: string, id: string) =>
  JSON.stringify({
    model: { provider, id },
    context: { messages: [{ role: "user", content: "hello", timestamp: 1 }] },
    options: {},
  });

beforeAll(async () => {
  fixture = await startFixtureServer(0);
  proxy = await startStandaloneProxy(
    {
      ALLOWED_ORIGINS: `${PAGE},https://docs.example`,
      PROXY_TOKEN: TOKEN,
      LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`,
      OPENAI_API_KEY: KEY,
      MAX_BODY_BYTES: "4096",
    },
    () => undefined,
    0,
  );
  port = Number(new URL(proxy.url).port);
});

afterAll(async () => {
  await proxy.close();
  await fixture.close();
});

afterEach(() => {
  fixture.requests.length = 0;
});

describe("the standalone proxy gives its token to anyone", () => {
  it("hands its token to nobody: /api/session and every other route want it, from a program or a page", async () => {
    const asked: Record<string, string>[] = [{}, { Origin: PAGE }, { "Sec-Fetch-Site": "same-origin" }];
    for (const headers of asked) {
      for (const path of ["/api/session", "/api/models"]) {
        const reply = await send(path, { headers });
        expect(reply.status, `${path} with ${JSON.stringify(headers)}`).toBe(401);
        expect(reply.body).not.toContain(TOKEN);
      }
    }
    const wrong = await send("/api/session", { headers: { Authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error).toMatch(/printed when it started \(or its PROXY_TOKEN\)/);
    // With the token it answers, and still does not say it.
    const right = await send("/api/session", { headers: fromPage() });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.body)).toEqual({ maxBodyBytes: 4096 });
    const program = await send("/api/models", { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(program.status).toBe(200);
  });

  it("prints a token it made up, for the operator to paste, and says it hands it to nobody", async () => {
    const made = await startStandaloneProxy({}, () => undefined, 0);
    try {
      const banner = made.banner.join("\n");
      const printed = /hands it to nobody\): (\S+)/.exec(banner)?.[1] ?? "";
      expect(printed).toMatch(/^[\w-]{32}$/);
      const port = Number(new URL(made.url).port);
      const session = await sendTo(port, "/api/session", {});
      expect(session.status).toBe(401);
      expect(session.body).not.toContain(printed);
      const models = await sendTo(port, "/api/models", { headers: { Authorization: `Bearer ${printed}` } });
      expect(models.status).toBe(200);
    } finally {
      await made.close();
    }
  });
});

describe("a page on a listed origin", () => {
  it("lists models with its token, and reads the answer: CORS names exactly its origin", async () => {
    const reply = await send("/api/models", { headers: fromPage() });
    expect(reply.status).toBe(200);
    expect(reply.headers["access-control-allow-origin"]).toBe(PAGE);
    expect(reply.headers.vary).toBe("Origin");
    expect(reply.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(reply.body).toContain("fixture-tools");
    expect(reply.body).not.toContain(KEY);
  });

  it("streams a local model through the proxy, its token never forwarded upstream", async () => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers: fromPage({ "Content-Type": "application/json" }),
      body: streamBody("local", "fixture-tools"),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers["access-control-allow-origin"]).toBe(PAGE);
    expect(reply.body).toMatch(/data: \{"type":"done"/);
    expect(fixture.requests).toHaveLength(1);
    expect(JSON.stringify(fixture.requests)).not.toContain(TOKEN);
  });

  it("reads a call's payload and previews the next, with CORS for its origin and a preflight per route", async () => {
    const callId = "cross-origin-call-1";
    await send("/api/stream", {
      method: "POST",
      headers: fromPage({ "Content-Type": "application/json" }),
      body: JSON.stringify({
        ...JSON.parse(streamBody("local", "fixture-tools")),
        options: { metadata: { callId } },
      }),
    });
    const path = `/api/calls/${callId}/payload`;
    const preflight = await send(path, {
      method: "OPTIONS",
      headers: {
        Origin: PAGE,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET");
    const kept = await send(path, { headers: fromPage() });
    expect(kept.status).toBe(200);
    expect(kept.headers["access-control-allow-origin"]).toBe(PAGE);
    expect(JSON.parse(kept.body).payload.value).toEqual(fixture.requests[0]?.body);
    expect(kept.body).not.toContain(KEY);
    expect((await send(path, { headers: { Origin: PAGE } })).status).toBe(401);

    const preview = await send("/api/preview", {
      method: "POST",
      headers: fromPage({ "Content-Type": "application/json" }),
      body: streamBody("local", "fixture-tools"),
    });
    expect(preview.status).toBe(200);
    expect(preview.headers["access-control-allow-origin"]).toBe(PAGE);
    expect(fixture.requests).toHaveLength(1);
  });

  it("needs the token on every route, and can read why it was refused", async () => {
    for (const [path, method] of [
      ["/api/session", "GET"],
      ["/api/models", "GET"],
      ["/api/stream", "POST"],
      ["/api/preview", "POST"],
      ["/api/calls/some-call-id-1/payload", "GET"],
    ] as const) {
      const reply = await send(path, {
        method,
        headers: { Origin: PAGE, "Content-Type": "application/json" },
        body: method === "POST" ? streamBody("local", "fixture-tools") : undefined,
      });
      expect(reply.status, path).toBe(401);
      expect(reply.headers["access-control-allow-origin"]).toBe(PAGE);
      expect(JSON.parse(reply.body).error).toMatch(/^Missing proxy token: .*printed when it started/);
    }
    expect(fixture.requests).toHaveLength(0);
  });

  it("is refused with a wrong token, and /api/session never hands the token to it", async () => {
    const wrong = await send("/api/session", {
      headers: fromPage({ Authorization: "Bearer not-the-token-at-all" }),
    });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error).toMatch(/^Invalid proxy token/);
    expect(wrong.body).not.toContain(TOKEN);
  });

  it("gets its preflight answered with the route's one method and the two headers it sends", async () => {
    const reply = await send("/api/stream", {
      method: "OPTIONS",
      headers: {
        Origin: PAGE,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
        "Access-Control-Request-Private-Network": "true",
      },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers["access-control-allow-origin"]).toBe(PAGE);
    expect(reply.headers["access-control-allow-methods"]).toBe("POST");
    expect(reply.headers["access-control-allow-headers"]).toBe("Authorization, Content-Type");
    expect(reply.headers["access-control-allow-private-network"]).toBe("true");
    expect(reply.headers["access-control-max-age"]).toBe("600");
  });

  it("still meets the limits: an oversized body is refused, readably", async () => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers: fromPage({ "Content-Type": "application/json" }),
      body: JSON.stringify({ padding: "x".repeat(8192) }),
    });
    expect(reply.status).toBe(413);
    expect(reply.headers["access-control-allow-origin"]).toBe(PAGE);
  });
});

describe("anyone else", () => {
  it("a foreign origin is refused even with the right token, and gets no CORS grant", async () => {
    for (const origin of ["http://evil.example", "http://127.0.0.1:45190", "http://localhost:4519", "null"]) {
      const reply = await send("/api/stream", {
        method: "POST",
        headers: fromPage({
          Origin: origin,
          "Sec-Fetch-Site": "cross-site",
          "Content-Type": "application/json",
        }),
        body: streamBody("local", "fixture-tools"),
      });
      expect(reply.status, origin).toBe(403);
      expect(reply.headers["access-control-allow-origin"], origin).toBeUndefined();
    }
    expect(fixture.requests).toHaveLength(0);
  });

  it("a foreign origin's preflight is not answered", async () => {
    const reply = await send("/api/models", {
      method: "OPTIONS",
      headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "GET" },
    });
    expect(reply.status).toBe(403);
    expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
    expect(reply.headers["access-control-allow-methods"]).toBeUndefined();
  });

  it("a rebinding Host is refused, whatever Origin and token come with it", async () => {
    const reply = await send("/api/models", {
      headers: fromPage({ Host: `attacker.example:${port}` }),
    });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toMatch(/Host "attacker\.example/);
    expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("a cross-site request without an Origin (a link, a form) is refused", async () => {
    const reply = await send("/api/models", { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(reply.status).toBe(403);
  });

  it("outside /api/ there is nothing to get", async () => {
    const reply = await send("/", { headers: fromPage() });
    expect(reply.status).toBe(404);
    expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("at start", () => {
  it("refuses to start on a bad ALLOWED_ORIGINS instead of guessing", async () => {
    await expect(startStandaloneProxy({ ALLOWED_ORIGINS: "*" }, () => undefined, 0)).rejects.toThrow(
      /wildcard/,
    );
  });

  it("says where it listens and whom it serves, without echoing a chosen token", () => {
    const banner = proxy.banner.join("\n");
    expect(banner).toContain(`listening on ${proxy.url}`);
    expect(banner).toContain(`Pages on ${PAGE}, https://docs.example may use this proxy`);
    expect(banner).not.toContain(TOKEN);
  });
});
