import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer, type Plugin, type ViteDevServer } from "vite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { allowedHostnames, listenAddress, playgroundApi, serverOptions } from "./vite-plugin.ts";

function start(plugin: Plugin): void {
  const server = { middlewares: { use: vi.fn() } } as unknown as ViteDevServer;
  const hook = plugin.configureServer;
  if (typeof hook === "function") void hook.call({} as never, server);
}

afterEach(() => vi.restoreAllMocks());

describe("where the server listens", () => {
  it("binds to 127.0.0.1 unless HOST says otherwise; PORT overrides the port", () => {
    expect(listenAddress({})).toEqual({ host: "127.0.0.1", port: undefined });
    expect(listenAddress({ HOST: "0.0.0.0", PORT: "8080" })).toEqual({ host: "0.0.0.0", port: 8080 });
    expect(listenAddress({ PORT: "nope" }).port).toBeUndefined();
  });

  it("warns when serving beyond this machine, and only then", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    start(playgroundApi({ host: "127.0.0.1", env: {} }));
    expect(warn).not.toHaveBeenCalled();
    start(playgroundApi({ host: "0.0.0.0", env: {} }));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/WARNING: serving on 0\.0\.0\.0.*spend the API keys/);
  });

  it("answers to loopback names only by default, plus the names given", () => {
    expect(allowedHostnames("127.0.0.1", {})).toEqual(["127.0.0.1", "localhost", "[::1]"]);
    expect(allowedHostnames("192.168.1.20", { ALLOWED_HOSTS: "play.example, other" })).toEqual([
      "127.0.0.1",
      "localhost",
      "[::1]",
      "192.168.1.20",
      "play.example",
      "other",
    ]);
  });
});

describe("behind Vite's own checks", () => {
  /** Vite answers Host and CORS before plugins run: the proxy's rules must hold as Vite serves them. */
  it("lets ALLOWED_HOSTS names reach the proxy and gives no CORS grant to other origins", async () => {
    const env = { ALLOWED_HOSTS: "play.example" };
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
    } finally {
      await server.close();
    }
  });
});
