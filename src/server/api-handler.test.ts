import { describe, expect, it } from "vitest";
import { liveConfig } from "./live/live-config.ts";
import type { ModelRegistry } from "./model-registry.ts";
import { auth, streamBody, TOKEN, useLoopbackProxy, type Reply } from "./api-handler.test-support.ts";

/**
 * The handler's front door: the session and models routes, the Origin and Host checks every route makes,
 * and the security headers on every answer, errors included.
 */

const loopback = useLoopbackProxy();
const { listen, send } = loopback;

describe("GET /api/session and /api/models", () => {
  it("gives the page its token", async () => {
    const reply = await send("/api/session");
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ token: TOKEN });
  });

  it("refuses a foreign Origin with 403", async () => {
    const reply = await send("/api/session", { headers: { Origin: "http://evil.example" } });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toMatch(/origin "http:\/\/evil\.example"/);
  });

  it("refuses a Host that is not this server (DNS rebinding) with 403", async () => {
    const reply = await send("/api/models", { headers: { Host: `attacker.example:${loopback.port}` } });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toMatch(/Host/);
  });

  it("accepts its own origin", async () => {
    const reply = await send("/api/models", {
      headers: { Origin: `http://127.0.0.1:${loopback.port}`, "Sec-Fetch-Site": "same-origin" },
    });
    expect(reply.status).toBe(200);
  });

  it("accepts a reverse proxy's name on any port, and still checks the port of its own names", async () => {
    const proxied = await listen({ proxiedHostnames: ["play.example"] });
    try {
      const through = (headers: Record<string, string>) =>
        send("/api/models", { headers }, proxied.port).then((reply) => reply.status);
      expect(await through({ Host: "play.example", Origin: "https://play.example" })).toBe(200);
      expect(await through({ Host: "play.example:8443", Origin: "https://play.example:8443" })).toBe(200);
      expect(await through({ Host: "play.example", Origin: "https://evil.example" })).toBe(403);
      expect(await through({ Host: "attacker.example" })).toBe(403);
      expect(await through({ Host: `127.0.0.1:${proxied.port}`, Origin: "http://127.0.0.1:3000" })).toBe(403);
    } finally {
      proxied.server.close();
    }
  });

  it("refuses browsers' cross-site requests even without an Origin", async () => {
    expect((await send("/api/models", { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
  });

  it("lists the offline models, the local server's models, and providers with keys, without the keys", async () => {
    const reply = await send("/api/models");
    const body = JSON.parse(reply.body) as { models: { provider: string; id: string }[]; warnings: string[] };
    const providers = new Set(body.models.map((model) => model.provider));
    expect(
      body.models
        .filter((model) => model.provider === "mirror")
        .map((model) => model.id)
        .sort(),
    ).toEqual(["mirror", "mirror-instant", "mirror-thinking"]);
    expect(body.models.filter((model) => model.provider === "local").map((model) => model.id)).toContain(
      "fixture-tools",
    );
    expect(providers.has("openai")).toBe(true);
    expect(providers.has("anthropic")).toBe(false);
    expect(reply.body).not.toContain("sk-test-not-a-real-key-123");
    expect(body.warnings).toEqual([]);
  });
});

describe("security headers", () => {
  const expectProtected = (reply: Reply, what: string) => {
    expect(reply.headers["x-content-type-options"], what).toBe("nosniff");
    expect(reply.headers["x-frame-options"], what).toBe("DENY");
    expect(reply.headers["content-security-policy"], what).toBe("frame-ancestors 'none'");
    expect(reply.headers["referrer-policy"], what).toBe("no-referrer");
    expect(reply.headers["cache-control"], what).toMatch(/no-store/);
  };

  it("are on every API answer, errors included", async () => {
    const stream = { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") };
    const cases: [string, Promise<Reply>, number][] = [
      ["session", send("/api/session"), 200],
      ["models", send("/api/models"), 200],
      ["stream", send("/api/stream", stream), 200],
      ["unknown endpoint", send("/api/nope"), 404],
      ["wrong method", send("/api/stream"), 405],
      ["no token", send("/api/stream", { ...stream, headers: {} }), 401],
      ["foreign origin", send("/api/models", { headers: { Origin: "http://evil.example" } }), 403],
      ["bad JSON", send("/api/stream", { ...stream, body: "{nope" }), 400],
      ["too large", send("/api/stream", { ...stream, body: "x".repeat(100 * 1024) }), 413],
    ];
    for (const [what, pending, status] of cases) {
      const reply = await pending;
      expect(reply.status, what).toBe(status);
      expectProtected(reply, what);
    }
  });

  it("are on the 429 and 500 answers too", async () => {
    const failing: ModelRegistry = { ...loopback.registry, list: () => Promise.reject(new Error("boom")) };
    const proxy = await listen({ registry: failing, maxConcurrentStreams: 1 });
    const controller = new AbortController();
    const long = streamBody("mirror", "mirror", [{ role: "user", content: "y".repeat(400), timestamp: 1 }]);
    const open = send(
      "/api/stream",
      { method: "POST", headers: auth, body: long, signal: controller.signal },
      proxy.port,
    ).catch(() => undefined);
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const busy = await send("/api/stream", { method: "POST", headers: auth, body: long }, proxy.port);
      expect(busy.status).toBe(429);
      expectProtected(busy, "429");
      const broken = await send("/api/models", {}, proxy.port);
      expect(broken.status).toBe(500);
      expectProtected(broken, "500");
    } finally {
      controller.abort();
      await open;
      proxy.server.close();
    }
  });
});

describe("a malformed call id is a 500 before any check", () => {
  it("is read only after the Origin and the token are checked, then refused with 400 saying why", async () => {
    const logged: string[] = [];
    const proxy = await listen({
      log: (line) => logged.push(line),
      live: liveConfig({ PI_PLAYGROUND_TOKEN: "pairing-token-for-tests-0123456789" }),
    });
    try {
      for (const path of ["/api/calls/%E0%A4%A/payload", "/api/live/sessions/%E0%A4%A"]) {
        const foreign = await send(path, { headers: { Origin: "http://evil.example" } }, proxy.port);
        expect(foreign.status, path).toBe(403);
        expect((await send(path, {}, proxy.port)).status, path).toBe(401);
        const malformed = await send(path, { headers: auth }, proxy.port);
        expect(malformed.status, path).toBe(400);
        expect(JSON.parse(malformed.body).error, path).toMatch(
          /id in the address is not valid percent-encoding: "%E0%A4%A"\.$/,
        );
      }
      // No stack trace in the log: a malformed address is the sender's mistake, not the proxy's.
      expect(logged).toEqual([]);
    } finally {
      proxy.server.close();
    }
  });
});
