import { hostname, networkInterfaces } from "node:os";
import { createToken, DEFAULT_LIMITS, type ApiOptions } from "./api-handler.ts";
import type { ModelRegistry } from "./model-registry.ts";
import type { ServerEnv } from "./server-env.ts";
import { LOOPBACK_HOSTNAMES, parseAllowedOrigins } from "./request-guard.ts";
import { positiveInt } from "../shared/positive-int.ts";
import { liveConfig, type LiveConfig } from "./live/live-config.ts";

/** A token shorter than this is guessable enough to spend someone's keys with. */
const MIN_TOKEN_LENGTH = 16;

/**
 * Everything the proxy reads from its environment, checked once at start: the Vite plugin (`npm start`,
 * `npm run dev`) and the standalone proxy (`npm run proxy`) configure the same handler from the same variables.
 */
export interface ProxyConfig {
  host: string;
  port: number | undefined;
  hostnames: string[];
  proxiedHostnames: string[];
  allowedOrigins: string[];
  token: string;
  /** True when the operator chose the token (PROXY_TOKEN), so it is never printed. */
  tokenFromEnv: boolean;
  maxBodyBytes: number;
  maxHeldBodyBytes: number;
  maxConcurrentStreams: number;
  maxConcurrentPreviews: number;
  upstreamIdleTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  clientReadTimeoutMs: number;
  maxUnsentBytes: number;
  /** Provider payloads kept for the page: each one's limit, all of them together (0: none kept), their age. */
  maxPayloadCaptureBytes: number;
  maxPayloadStoreBytes: number;
  payloadTtlMs: number;
  /** Live pi sessions: the pairing token, the ingest's limits, the extension's path. */
  live: LiveConfig;
}

/** Read and check the environment; a bad value throws an Error whose message says what to fix. */
export function proxyConfig(env: ServerEnv): ProxyConfig {
  const { host, port } = listenAddress(env);
  const chosenToken = env.PROXY_TOKEN?.trim();
  if (chosenToken !== undefined && chosenToken !== "") {
    if (chosenToken.length < MIN_TOKEN_LENGTH || /\s/.test(chosenToken)) {
      throw new Error(
        `PROXY_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters without spaces; leave it unset for a random token per start.`,
      );
    }
  }
  const maxBodyBytes = positiveInt(env.MAX_BODY_BYTES) ?? DEFAULT_LIMITS.maxBodyBytes;
  return {
    host,
    port,
    hostnames: allowedHostnames(host, env),
    proxiedHostnames: proxiedHostnames(env),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    token: chosenToken || createToken(),
    tokenFromEnv: Boolean(chosenToken),
    maxBodyBytes,
    // Four bodies of the largest size a request may have, unless the operator says otherwise.
    maxHeldBodyBytes: positiveInt(env.MAX_HELD_BODY_BYTES) ?? 4 * maxBodyBytes,
    maxConcurrentStreams: positiveInt(env.MAX_CONCURRENT_STREAMS) ?? DEFAULT_LIMITS.maxConcurrentStreams,
    maxConcurrentPreviews: positiveInt(env.MAX_CONCURRENT_PREVIEWS) ?? DEFAULT_LIMITS.maxConcurrentPreviews,
    upstreamIdleTimeoutMs: positiveInt(env.UPSTREAM_IDLE_TIMEOUT_MS) ?? DEFAULT_LIMITS.upstreamIdleTimeoutMs,
    bodyIdleTimeoutMs: positiveInt(env.BODY_IDLE_TIMEOUT_MS) ?? DEFAULT_LIMITS.bodyIdleTimeoutMs,
    clientReadTimeoutMs: positiveInt(env.CLIENT_READ_TIMEOUT_MS) ?? DEFAULT_LIMITS.clientReadTimeoutMs,
    maxUnsentBytes: positiveInt(env.MAX_UNSENT_BYTES) ?? DEFAULT_LIMITS.maxUnsentBytes,
    maxPayloadCaptureBytes:
      positiveInt(env.MAX_PAYLOAD_CAPTURE_BYTES) ?? DEFAULT_LIMITS.maxPayloadCaptureBytes,
    // 0 is a choice here: keep no payloads at all.
    maxPayloadStoreBytes:
      env.MAX_PAYLOAD_STORE_BYTES?.trim() === "0"
        ? 0
        : (positiveInt(env.MAX_PAYLOAD_STORE_BYTES) ?? DEFAULT_LIMITS.maxPayloadStoreBytes),
    payloadTtlMs: positiveInt(env.PAYLOAD_TTL_MS) ?? DEFAULT_LIMITS.payloadTtlMs,
    live: liveConfig(env),
  };
}

export function apiOptions(
  config: ProxyConfig,
  registry: ModelRegistry,
  log: (line: string) => void,
): ApiOptions {
  return {
    registry,
    token: config.token,
    hostnames: config.hostnames,
    proxiedHostnames: config.proxiedHostnames,
    allowedOrigins: config.allowedOrigins,
    maxBodyBytes: config.maxBodyBytes,
    maxHeldBodyBytes: config.maxHeldBodyBytes,
    maxConcurrentStreams: config.maxConcurrentStreams,
    maxConcurrentPreviews: config.maxConcurrentPreviews,
    upstreamIdleTimeoutMs: config.upstreamIdleTimeoutMs,
    bodyIdleTimeoutMs: config.bodyIdleTimeoutMs,
    clientReadTimeoutMs: config.clientReadTimeoutMs,
    maxUnsentBytes: config.maxUnsentBytes,
    keepAliveMs: DEFAULT_LIMITS.keepAliveMs,
    maxPayloadCaptureBytes: config.maxPayloadCaptureBytes,
    maxPayloadStoreBytes: config.maxPayloadStoreBytes,
    payloadTtlMs: config.payloadTtlMs,
    live: config.live,
    log,
  };
}

/**
 * What the operator needs to connect a page served elsewhere: the origins it accepts and the token to
 * paste into that page. The token is printed only when the proxy made it up; a chosen one is not echoed.
 */
export function accessLines(config: ProxyConfig, url: string): string[] {
  if (config.allowedOrigins.length === 0) {
    return [
      `Pages served by ${url} itself can use this proxy. To use it from a page served elsewhere, start it with ALLOWED_ORIGINS=<that page's origin>.`,
    ];
  }
  return [
    `Pages on ${config.allowedOrigins.join(", ")} may use this proxy at ${url}.`,
    config.tokenFromEnv
      ? "Their token is the value of PROXY_TOKEN."
      : `Paste this token into the page: ${config.token} (it changes at every start; set PROXY_TOKEN to keep one).`,
  ];
}

/**
 * What `npm run proxy` prints at start. It serves no page and hands its token to nobody over HTTP, so the
 * token is printed whenever the proxy made it up (a chosen PROXY_TOKEN is not echoed): every request needs
 * it, from a page on a listed origin or from a program.
 */
export function standaloneAccessLines(config: ProxyConfig, url: string): string[] {
  const who =
    config.allowedOrigins.length === 0
      ? `Programs that can reach it may use it with the token (curl, scripts). To use it from a page served elsewhere, start it with ALLOWED_ORIGINS=<that page's origin>.`
      : `Pages on ${config.allowedOrigins.join(", ")} may use this proxy at ${url}, with the token.`;
  return [
    who,
    config.tokenFromEnv
      ? "Its token is the value of PROXY_TOKEN; the proxy hands it to nobody."
      : `Its token (paste it into the page; the proxy hands it to nobody): ${config.token} (it changes at every start; set PROXY_TOKEN to keep one).`,
  ];
}

/** Where the server listens: loopback unless HOST says otherwise; PORT overrides the port. */
export function listenAddress(env: ServerEnv): { host: string; port: number | undefined } {
  return { host: env.HOST?.trim() || "127.0.0.1", port: positiveInt(env.PORT) };
}

/** The URL people use to reach a server bound to `host`: a wildcard address is reached on loopback. */
export function serverUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" || host === "::" || host === "true" ? "127.0.0.1" : host;
  return `http://${reachable.includes(":") && !reachable.startsWith("[") ? `[${reachable}]` : reachable}:${port}`;
}

export function isLoopback(host: string): boolean {
  return (LOOPBACK_HOSTNAMES as readonly string[]).includes(host) || host === "::1";
}

/**
 * Loopback names always; when bound elsewhere, the names a browser may use to reach this machine,
 * plus any listed in ALLOWED_HOSTS (comma-separated) for reverse proxies or custom DNS.
 */
export function allowedHostnames(host: string, env: ServerEnv): string[] {
  const names = new Set<string>(LOOPBACK_HOSTNAMES);
  if (!isLoopback(host)) {
    if (host === "0.0.0.0" || host === "::" || host === "true") {
      names.add(hostname().toLowerCase());
      for (const addresses of Object.values(networkInterfaces())) {
        for (const address of addresses ?? [])
          names.add(address.family === "IPv6" ? `[${address.address}]` : address.address);
      }
    } else {
      names.add(host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase());
    }
  }
  for (const extra of proxiedHostnames(env)) names.add(extra);
  return [...names];
}

/** ALLOWED_HOSTS: the names of reverse proxies or custom DNS in front of this server. */
export function proxiedHostnames(env: ServerEnv): string[] {
  return (env.ALLOWED_HOSTS ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}
