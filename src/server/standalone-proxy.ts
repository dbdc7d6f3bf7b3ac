import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiHandler } from "./api-handler.ts";
import { HttpError } from "../shared/http-error.ts";
import { sendError } from "./http-utils.ts";
import { createModelRegistry } from "./model-registry.ts";
import type { ServerEnv } from "./server-env.ts";
import { apiOptions, isLoopback, proxyConfig, serverUrl, standaloneAccessLines } from "./proxy-config.ts";

/** Where `npm run proxy` listens unless PORT says otherwise: beside `npm start` (4173) and `npm run dev` (5173). */
export const DEFAULT_PROXY_PORT = 4180;

/** The headers every answer carries; the proxy serves no page, so it has nothing to frame or sniff. */
const HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

export interface StandaloneProxy {
  server: Server;
  url: string;
  /** What to print at start: where it listens, who may use it, and the token to paste. */
  banner: string[];
  close(): Promise<void>;
}

/**
 * The proxy alone, for a playground served elsewhere (a static host): the same handler, configuration and
 * checks as the one inside `npm start`, on a plain Node HTTP server. Anything outside `/api/` is 404.
 */
export async function startStandaloneProxy(
  env: ServerEnv,
  log: (line: string) => void,
  /** Overrides PORT; 0 picks a free port (tests). */
  port?: number,
): Promise<StandaloneProxy> {
  const config = proxyConfig(env);
  const registry = await createModelRegistry({ env, builtins: true });
  // It serves no page, so no page of its own reads the token: it is printed (or set), never handed out.
  const handler = createApiHandler({ ...apiOptions(config, registry, log), handsOutToken: false });
  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(HEADERS)) res.setHeader(name, value);
    handler(req, res, () =>
      sendError(
        res,
        new HttpError(404, "Not found: this is the pi playground proxy; its API is under /api/."),
      ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port ?? config.port ?? DEFAULT_PROXY_PORT, config.host, () => resolve());
  });
  const url = serverUrl(config.host, (server.address() as AddressInfo).port);
  const banner = [`pi playground proxy listening on ${url}`, ...standaloneAccessLines(config, url)];
  if (!isLoopback(config.host)) {
    banner.push(
      `WARNING: listening on ${config.host}, not only on this machine: anyone who can reach it and has the token can spend the API keys in this environment.`,
    );
  }
  return {
    server,
    url,
    banner,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
