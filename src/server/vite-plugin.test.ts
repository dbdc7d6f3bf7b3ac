import type { Plugin, ViteDevServer } from "vite";
import { afterEach, describe, expect, it, vi } from "vitest";
import { allowedHostnames, listenAddress, playgroundApi } from "./vite-plugin.ts";

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
