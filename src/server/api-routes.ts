import type { IncomingMessage, ServerResponse } from "node:http";
import { API_ROUTES } from "../shared/api-routes.ts";
import { matchApiRoute } from "../shared/api-route-match.ts";
import { isLiveSessionRoute, LIVE_PAGE_ROUTES } from "./live/live-routes.ts";

/**
 * The API's routes: which requests are for the API at all, the paths it answers and the one method each
 * takes, which of them need the token, and the preflight a listed origin gets. The proxy's own routes are
 * the shared table (`src/shared/api-routes.ts`, which the page's in-page proxy answers from too); the live
 * pi routes are the server's alone.
 */

/**
 * The route a path names: one of the shared table's (a call's payload with its id segment, still encoded),
 * or a live pi route. Nothing in the path is decoded here: that waits until the guards have run.
 */
export function routeOf(path: string): { method: string; callIdSegment?: string } | undefined {
  const shared = matchApiRoute(path);
  if (shared) {
    const { callIdSegment } = shared;
    return { method: shared.spec.method, ...(callIdSegment === undefined ? {} : { callIdSegment }) };
  }
  const live = LIVE_PAGE_ROUTES[path];
  if (live) return { method: live };
  if (isLiveSessionRoute(path)) return { method: "GET" };
  return undefined;
}

/** Routes that read or spend what only the page's own origin (or the operator) may: they need the token. */
export const TOKEN_ROUTES = new Set([
  ...Object.values(API_ROUTES)
    .filter((route) => route.token)
    .map((route) => route.path),
  ...Object.keys(LIVE_PAGE_ROUTES),
]);

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
