import { describe, expect, it } from "vitest";
import { createModelRegistry } from "./model-registry.ts";
import {
  accessLines,
  allowedHostnames,
  apiOptions,
  listenAddress,
  proxyConfig,
  standaloneAccessLines,
} from "./proxy-config.ts";
import { parseAllowedOrigins } from "./request-guard.ts";

describe("where the server listens", () => {
  it("binds to 127.0.0.1 unless HOST says otherwise; PORT overrides the port", () => {
    expect(listenAddress({})).toEqual({ host: "127.0.0.1", port: undefined });
    expect(listenAddress({ HOST: "0.0.0.0", PORT: "8080" })).toEqual({ host: "0.0.0.0", port: 8080 });
    expect(listenAddress({ PORT: "nope" }).port).toBeUndefined();
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

describe("ALLOWED_ORIGINS", () => {
  it("is a list of exact origins, as browsers send them", () => {
    expect(parseAllowedOrigins(undefined)).toEqual([]);
    expect(
      parseAllowedOrigins(" https://Me.GitHub.io , http://127.0.0.1:8080/ ,https://me.github.io"),
    ).toEqual(["https://me.github.io", "http://127.0.0.1:8080"]);
  });

  it("refuses wildcards, paths, credentials and non-web schemes instead of guessing", () => {
    expect(() => parseAllowedOrigins("*")).toThrow(/wildcard; name each origin/);
    expect(() => parseAllowedOrigins("https://*.github.io")).toThrow(/wildcard/);
    expect(() => parseAllowedOrigins("https://me.github.io/playground/")).toThrow(
      /more than an origin.*\(https:\/\/me\.github\.io\)/,
    );
    expect(() => parseAllowedOrigins("https://user:pw@me.github.io")).toThrow(/more than an origin/);
    expect(() => parseAllowedOrigins("me.github.io")).toThrow(/not an origin/);
    expect(() => parseAllowedOrigins("file:///tmp")).toThrow(/not an origin/);
    expect(() => parseAllowedOrigins("null")).toThrow(/not an origin/);
  });
});

describe("the proxy's token", () => {
  it("is random per start unless PROXY_TOKEN chooses one, which must be long enough", () => {
    const first = proxyConfig({});
    expect(first.token).toMatch(/^[\w-]{32}$/);
    expect(first.tokenFromEnv).toBe(false);
    expect(proxyConfig({}).token).not.toBe(first.token);
    const chosen = proxyConfig({ PROXY_TOKEN: "a-long-enough-token-1234" });
    expect(chosen).toMatchObject({ token: "a-long-enough-token-1234", tokenFromEnv: true });
    expect(() => proxyConfig({ PROXY_TOKEN: "short" })).toThrow(/at least 16 characters/);
  });

  it("is printed for the operator to paste, unless they chose it", () => {
    const generated = proxyConfig({ ALLOWED_ORIGINS: "https://me.github.io" });
    const lines = accessLines(generated, "http://127.0.0.1:4180").join("\n");
    expect(lines).toContain("Pages on https://me.github.io may use this proxy at http://127.0.0.1:4180.");
    expect(lines).toContain(`Paste this token into the page: ${generated.token}`);
    const chosen = proxyConfig({
      ALLOWED_ORIGINS: "https://me.github.io",
      PROXY_TOKEN: "a-long-enough-token-1234",
    });
    const chosenLines = accessLines(chosen, "http://127.0.0.1:4180").join("\n");
    expect(chosenLines).not.toContain("a-long-enough-token-1234");
    expect(chosenLines).toContain("PROXY_TOKEN");
  });

  it("is printed by the standalone proxy even without ALLOWED_ORIGINS, since it hands it to nobody", () => {
    const generated = proxyConfig({});
    const lines = standaloneAccessLines(generated, "http://127.0.0.1:4180").join("\n");
    expect(lines).toContain(`the proxy hands it to nobody): ${generated.token}`);
    expect(lines).toMatch(/ALLOWED_ORIGINS=/);
    const chosen = standaloneAccessLines(proxyConfig({ PROXY_TOKEN: "a-long-enough-token-1234" }), "x").join(
      "\n",
    );
    expect(chosen).not.toContain("a-long-enough-token-1234");
    expect(chosen).toContain("PROXY_TOKEN");
  });

  it("tells an operator without ALLOWED_ORIGINS how to admit a page served elsewhere", () => {
    expect(accessLines(proxyConfig({}), "http://127.0.0.1:4180").join("\n")).toMatch(/ALLOWED_ORIGINS=/);
  });

  it("keeps every limit's default unless its variable is a positive integer", () => {
    expect(proxyConfig({})).toMatchObject({
      maxBodyBytes: 20 * 1024 * 1024,
      maxConcurrentStreams: 4,
      upstreamIdleTimeoutMs: 120_000,
    });
    expect(proxyConfig({ MAX_BODY_BYTES: "1000", MAX_CONCURRENT_STREAMS: "-1" })).toMatchObject({
      maxBodyBytes: 1000,
      maxConcurrentStreams: 4,
    });
    expect(proxyConfig({}).maxConcurrentPreviews).toBe(2);
    expect(proxyConfig({ MAX_CONCURRENT_PREVIEWS: "5" }).maxConcurrentPreviews).toBe(5);
  });

  it("holds four bodies of the largest size at once unless MAX_HELD_BODY_BYTES says otherwise", () => {
    expect(proxyConfig({}).maxHeldBodyBytes).toBe(80 * 1024 * 1024);
    expect(proxyConfig({ MAX_BODY_BYTES: "1000" }).maxHeldBodyBytes).toBe(4000);
    expect(proxyConfig({ MAX_HELD_BODY_BYTES: "123456" }).maxHeldBodyBytes).toBe(123_456);
    expect(proxyConfig({ MAX_HELD_BODY_BYTES: "none" }).maxHeldBodyBytes).toBe(80 * 1024 * 1024);
  });

  it("keeps provider payloads up to 2 MB each, 64 MB in all, for 10 minutes, unless told otherwise", async () => {
    expect(proxyConfig({})).toMatchObject({
      maxPayloadCaptureBytes: 2 * 1024 * 1024,
      maxPayloadStoreBytes: 64 * 1024 * 1024,
      payloadTtlMs: 600_000,
    });
    const chosen = proxyConfig({
      MAX_PAYLOAD_CAPTURE_BYTES: "4096",
      MAX_PAYLOAD_STORE_BYTES: "65536",
      PAYLOAD_TTL_MS: "1000",
    });
    expect(chosen).toMatchObject({
      maxPayloadCaptureBytes: 4096,
      maxPayloadStoreBytes: 65536,
      payloadTtlMs: 1000,
    });
    const registry = await createModelRegistry({ env: {}, builtins: false });
    expect(apiOptions(chosen, registry, () => undefined)).toMatchObject({
      maxPayloadCaptureBytes: 4096,
      maxPayloadStoreBytes: 65536,
      payloadTtlMs: 1000,
    });
    // 0 turns keeping off; any other non-positive value keeps the default.
    expect(proxyConfig({ MAX_PAYLOAD_STORE_BYTES: "0" }).maxPayloadStoreBytes).toBe(0);
    expect(proxyConfig({ MAX_PAYLOAD_CAPTURE_BYTES: "0", PAYLOAD_TTL_MS: "-5" })).toMatchObject({
      maxPayloadCaptureBytes: 2 * 1024 * 1024,
      payloadTtlMs: 600_000,
    });
  });
});
