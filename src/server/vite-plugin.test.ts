import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer, type Plugin, type ViteDevServer } from "vite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { playgroundApi, serverOptions } from "./vite-plugin.ts";

function start(plugin: Plugin): void {
  const server = { middlewares: { use: vi.fn() } } as unknown as ViteDevServer;
  const hook = plugin.configureServer;
  if (typeof hook === "function") void hook.call({} as never, server);
}

afterEach(() => vi.restoreAllMocks());

describe("the plugin at start", () => {
  it("warns when serving beyond this machine, and only then", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    start(playgroundApi({ host: "127.0.0.1", env: {} }));
    expect(warn).not.toHaveBeenCalled();
    start(playgroundApi({ host: "0.0.0.0", env: {} }));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/WARNING: serving on 0\.0\.0\.0.*spend the API keys/);
  });

  it("refuses to start with a wildcard or malformed ALLOWED_ORIGINS, saying why", () => {
    expect(() => playgroundApi({ host: "127.0.0.1", env: { ALLOWED_ORIGINS: "*" } })).toThrow(/wildcard/);
    expect(() => playgroundApi({ host: "127.0.0.1", env: { ALLOWED_ORIGINS: "me.github.io" } })).toThrow(
      /not an origin/,
    );
  });
});

describe("behind Vite's own checks", () => {
  /** Vite answers Host and CORS before plugins run: the proxy's rules must hold as Vite serves them. */
  it("lets ALLOWED_HOSTS names reach the proxy and grants CORS to ALLOWED_ORIGINS only", async () => {
    const env = { ALLOWED_HOSTS: "play.example", ALLOWED_ORIGINS: "https://docs.example" };
    const server = await createServer({
      configFile: false,
      logLevel: "silent",
      plugins: [playgroundApi({ host: "127.0.0.1", env })],
      server: { ...serverOptions("127.0.0.1", env), port: 0, strictPort: false, ws: false },
    });
    await server.listen();
    const { port } = server.httpServer?.address() as AddressInfo;
    const send = (method: string, headers: Record<string, string>) =>
      new Promise<{ status: number; allowOrigin: string | undefined }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/api/models", method, headers }, (res) => {
          res.resume();
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              allowOrigin: res.headers["access-control-allow-origin"],
            }),
          );
        });
        req.on("error", reject);
        req.end();
      });
    try {
      const proxied = await send("GET", { Host: "play.example", Origin: "https://play.example" });
      expect(proxied.status).toBe(200);
      expect((await send("GET", { Host: "attacker.example" })).status).toBe(403);
      const preflight = await send("OPTIONS", {
        Host: `127.0.0.1:${port}`,
        Origin: "http://localhost:3000",
        "Access-Control-Request-Method": "POST",
      });
      expect(preflight.allowOrigin).toBeUndefined();
      expect(preflight.status).toBe(403);
      const listed = await send("OPTIONS", {
        Host: `127.0.0.1:${port}`,
        Origin: "https://docs.example",
        "Access-Control-Request-Method": "GET",
      });
      expect(listed).toEqual({ status: 204, allowOrigin: "https://docs.example" });
      // The listed origin's page must bring the token, and can read that it did not.
      const withoutToken = await send("GET", { Host: `127.0.0.1:${port}`, Origin: "https://docs.example" });
      expect(withoutToken).toEqual({ status: 401, allowOrigin: "https://docs.example" });
    } finally {
      await server.close();
    }
  });
});

describe("security headers on everything the server writes", () => {
  /** Vite's own answers (its Host check, pages, files) as well as the API's. */
  it("are on pages, files, API answers and Vite's own refusals", async () => {
    const server = await createServer({
      configFile: false,
      logLevel: "silent",
      plugins: [playgroundApi({ host: "127.0.0.1", env: {} })],
      server: { ...serverOptions("127.0.0.1", {}), port: 0, strictPort: false, ws: false },
    });
    await server.listen();
    const { port } = server.httpServer?.address() as AddressInfo;
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = request(
          { host: "127.0.0.1", port, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
          },
        );
        req.on("error", reject);
        req.end();
      });
    try {
      const cases: [string, Promise<{ status: number; headers: Record<string, unknown> }>, number][] = [
        ["the page", get("/"), 200],
        ["a source file", get("/src/main.ts"), 200],
        ["a public file", get("/favicon.svg"), 200],
        ["the API", get("/api/session"), 200],
        ["an API error", get("/api/nope"), 404],
        ["Vite's Host check", get("/", { Host: "attacker.example" }), 403],
        ["Vite's file-system guard", get("/@fs/etc/passwd"), 403],
      ];
      for (const [what, pending, status] of cases) {
        const reply = await pending;
        expect(reply.status, what).toBe(status);
        expect(reply.headers["x-content-type-options"], what).toBe("nosniff");
        expect(reply.headers["x-frame-options"], what).toBe("DENY");
        expect(reply.headers["content-security-policy"], what).toBe("frame-ancestors 'none'");
        expect(reply.headers["referrer-policy"], what).toBe("no-referrer");
      }
    } finally {
      await server.close();
    }
  });
});
