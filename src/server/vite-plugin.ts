import type { Server as HttpServer } from "node:http";
import { ServerResponse } from "node:http";
import type { Http2SecureServer, Http2ServerResponse } from "node:http2";
import { hostname, networkInterfaces } from "node:os";
import type { Connect, Plugin } from "vite";
import { apiPath, createApiHandler, createToken, DEFAULT_LIMITS, type ApiHandler } from "./api-handler.ts";
import { createModelRegistry, type ServerEnv } from "./model-registry.ts";
import { LOOPBACK_HOSTNAMES } from "./request-guard.ts";
import { applySecurityHeaders, SECURITY_HEADERS } from "./security-headers.ts";

/** Where the server listens: loopback unless HOST says otherwise; PORT overrides the port. */
export function listenAddress(env: ServerEnv): { host: string; port: number | undefined } {
  return { host: env.HOST?.trim() || "127.0.0.1", port: positiveInt(env.PORT) };
}

/**
 * Options shared by Vite's dev and preview servers. Vite checks Host and answers CORS before any plugin
 * sees a request, so the names the proxy accepts must be Vite's allowed hosts too, and Vite's own CORS
 * (which admits any localhost origin) is turned off: the proxy's guard decides who may call it.
 */
export function serverOptions(host: string, env: ServerEnv) {
  return { host, allowedHosts: allowedHostnames(host, env), cors: false };
}

export interface PlaygroundApiOptions {
  /** The address the server binds to; anything but loopback is an explicit choice that deserves a warning. */
  host: string;
  env?: ServerEnv;
}

/**
 * Serves the proxy API under both `vite` (dev) and `vite preview` (the built app), from the same plain
 * Node handler. The registry is built on first use so that starting the server stays quick.
 */
export function playgroundApi(options: PlaygroundApiOptions): Plugin {
  const env = options.env ?? process.env;
  const token = createToken();
  let handler: Promise<ApiHandler> | undefined;
  let warned = false;

  const getHandler = () => {
    // A failed start is not kept: the next request tries again instead of failing until a restart.
    handler ??= createModelRegistry({ env, builtins: true }).then((registry) =>
      createApiHandler({
        registry,
        token,
        hostnames: allowedHostnames(options.host, env),
        proxiedHostnames: proxiedHostnames(env),
        maxBodyBytes: positiveInt(env.MAX_BODY_BYTES) ?? DEFAULT_LIMITS.maxBodyBytes,
        maxConcurrentStreams: positiveInt(env.MAX_CONCURRENT_STREAMS) ?? DEFAULT_LIMITS.maxConcurrentStreams,
        upstreamIdleTimeoutMs:
          positiveInt(env.UPSTREAM_IDLE_TIMEOUT_MS) ?? DEFAULT_LIMITS.upstreamIdleTimeoutMs,
        bodyIdleTimeoutMs: positiveInt(env.BODY_IDLE_TIMEOUT_MS) ?? DEFAULT_LIMITS.bodyIdleTimeoutMs,
        clientReadTimeoutMs: positiveInt(env.CLIENT_READ_TIMEOUT_MS) ?? DEFAULT_LIMITS.clientReadTimeoutMs,
        maxUnsentBytes: positiveInt(env.MAX_UNSENT_BYTES) ?? DEFAULT_LIMITS.maxUnsentBytes,
        keepAliveMs: DEFAULT_LIMITS.keepAliveMs,
        log: (line) => console.error(`[pi-playground] ${line}`),
      }),
    );
    handler.catch(() => (handler = undefined));
    return handler;
  };

  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    if (apiPath(req.url) === undefined) {
      next();
      return;
    }
    getHandler().then(
      (handle) => handle(req, res, next),
      (error: unknown) => next(error),
    );
  };

  const warnIfExposed = () => {
    if (warned || isLoopback(options.host)) return;
    warned = true;
    console.warn(
      `[pi-playground] WARNING: serving on ${options.host}, not only on this machine. Anyone who can reach it can open ` +
        "the playground, and through it spend the API keys in this server's environment. Unset HOST to bind to 127.0.0.1.",
    );
  };

  return {
    name: "pi-playground-api",
    configureServer(server) {
      warnIfExposed();
      protectEveryResponse(server.httpServer);
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      warnIfExposed();
      protectEveryResponse(server.httpServer);
      server.middlewares.use(middleware);
    },
  };
}

/**
 * Vite answers some requests before any plugin middleware runs (its Host check, malformed requests), and its
 * `headers` option reaches only the files it serves. A listener placed ahead of Vite's own gives every
 * response the security headers, whoever writes it.
 */
function protectEveryResponse(httpServer: HttpServer | Http2SecureServer | null): void {
  httpServer?.prependListener("request", (_req: unknown, res: ServerResponse | Http2ServerResponse) => {
    if (res instanceof ServerResponse) applySecurityHeaders(res);
    else for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  });
}

function isLoopback(host: string): boolean {
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
function proxiedHostnames(env: ServerEnv): string[] {
  return (env.ALLOWED_HOSTS ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

function positiveInt(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : undefined;
}
