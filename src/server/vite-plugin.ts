import { ServerResponse, type Server } from "node:http";
import type { Http2SecureServer, Http2ServerResponse } from "node:http2";
import type { Connect, Plugin } from "vite";
import { createApiHandler, type ApiHandler } from "./api-handler.ts";
import { apiPath } from "./api-routes.ts";
import { createModelRegistry } from "./model-registry.ts";
import type { ServerEnv } from "./server-env.ts";
import {
  accessLines,
  allowedHostnames,
  apiOptions,
  isLoopback,
  proxyConfig,
  serverUrl,
} from "./proxy-config.ts";
import { applySecurityHeaders, SECURITY_HEADERS } from "./security-headers.ts";
import { connectCommand } from "./live/live-config.ts";

/**
 * Options shared by Vite's dev and preview servers. Vite checks Host and answers CORS before any plugin
 * sees a request, so the names the proxy accepts must be Vite's allowed hosts too, and Vite's own CORS
 * (which admits any localhost origin) is turned off: the proxy's guard decides who may call it, and
 * answers CORS itself for the origins in ALLOWED_ORIGINS.
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
 * Node handler as `npm run proxy`. The registry is built on first use so that starting the server stays quick.
 */
export function playgroundApi(options: PlaygroundApiOptions): Plugin {
  const env = options.env ?? process.env;
  // A bad variable (ALLOWED_ORIGINS, PROXY_TOKEN) stops the server at start, with the sentence saying why.
  const config = proxyConfig({ ...env, HOST: options.host });
  let handler: Promise<ApiHandler> | undefined;
  let announced = false;

  const getHandler = () => {
    // A failed start is not kept: the next request tries again instead of failing until a restart.
    handler ??= createModelRegistry({ env, builtins: true }).then((registry) =>
      createApiHandler(apiOptions(config, registry, (line) => console.error(`[pi-playground] ${line}`))),
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

  const announce = (url: string | undefined) => {
    if (announced) return;
    announced = true;
    if (!isLoopback(options.host)) {
      console.warn(
        `[pi-playground] WARNING: serving on ${options.host}, not only on this machine. Anyone who can reach it can open ` +
          "the playground, and through it spend the API keys in this server's environment. Unset HOST to bind to 127.0.0.1.",
      );
    }
    if (config.allowedOrigins.length > 0) {
      for (const line of accessLines(config, url ?? "this server")) console.info(`[pi-playground] ${line}`);
    }
    if (url) {
      console.info(
        `[pi-playground] To watch a pi coding agent here, start it with this extension (the page shows it too, under "Connect pi"):\n  ${connectCommand(config.live, url)}`,
      );
    }
  };

  const announceWhenListening = (httpServer: Server | Http2SecureServer | null | undefined) => {
    if (!httpServer) {
      announce(undefined);
      return;
    }
    httpServer.once("listening", () => {
      const address = httpServer.address();
      announce(typeof address === "object" && address ? serverUrl(options.host, address.port) : undefined);
    });
  };

  return {
    name: "pi-playground-api",
    configureServer(server) {
      announceWhenListening(server.httpServer);
      protectEveryResponse(server.httpServer);
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      announceWhenListening(server.httpServer);
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
function protectEveryResponse(httpServer: Server | Http2SecureServer | null): void {
  httpServer?.prependListener("request", (_req: unknown, res: ServerResponse | Http2ServerResponse) => {
    if (res instanceof ServerResponse) applySecurityHeaders(res);
    else for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  });
}
