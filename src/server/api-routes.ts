import type { IncomingMessage, ServerResponse } from "node:http";
import { payloadRouteCallId, PREVIEW_PATH } from "../shared/payloads/payload-route.ts";
import { LIVE_PAGE_ROUTES, liveSessionRoute } from "./live/live-routes.ts";

/**
 * The API's routes: which requests are for the API at all, the paths it answers and the one method each
 * takes, which of them need the token, and the preflight a listed origin gets.
 */

const ROUTES: Record<string, string> = {
  "/api/session": "GET",
  "/api/models": "GET",
  "/api/stream": "POST",
  [PREVIEW_PATH]: "POST",
  ...LIVE_PAGE_ROUTES,
};

/** The route a path names: one of ROUTES, or a call's payload (`/api/calls/:callId/payload`, GET). */
export function routeOf(path: string): { method: string; callId?: string } | undefined {
  const method = ROUTES[path];
  if (method) return { method };
  if (liveSessionRoute(path) !== undefined) return { method: "GET" };
  const callId = payloadRouteCallId(path);
  return callId === undefined ? undefined : { method: "GET", callId };
}

/** Routes that read or spend what only the page's own origin (or the operator) may: they need the token. */
export const TOKEN_ROUTES = new Set(["/api/stream", PREVIEW_PATH, ...Object.keys(LIVE_PAGE_ROUTES)]);

/** Live pi sessions are the page's to read only with the token, whatever the route. */
export function needsToken(path: string): boolean {
  return TOKEN_ROUTES.has(path) || path.startsWith("/api/live/");
}

/** How long a browser may reuse a preflight answer before asking again. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * A listed origin's preflight: the route's one method and the two headers `streamProxy` sends. Chromium
 * asks loopback servers for consent to be reached from other sites (Private Network Access); the operator
 * gave it by listing the origin.
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, method: string): void {
  const headers: Record<string, string> = {
    "Access-Control-Allow-Methods": method,
    "Access-Control-Allow-Headers": "Authorization, Content-Type",
    "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
  };
  if (req.headers["access-control-request-private-network"] === "true") {
    headers["Access-Control-Allow-Private-Network"] = "true";
  }
  res.writeHead(204, headers);
  res.end();
}

/** The pathname of a request for the API, or undefined for anything else (the app's own pages and assets). */
export function apiPath(url: string | undefined): string | undefined {
  const path = new URL(url ?? "/", "http://placeholder").pathname;
  return path === "/api" || path.startsWith("/api/") ? path : undefined;
}
