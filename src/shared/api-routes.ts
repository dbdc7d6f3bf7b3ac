/**
 * The proxy's API, one table for both sides: the server answers every route (`src/server/api-routes.ts`
 * adds the live pi routes it alone has), and the page answers those marked `inPage` itself when no proxy is
 * used (`src/lib/connection/in-page-proxy.ts`), so the two cannot drift apart. The page builds its request
 * addresses from the same table; matching a path to its route is `api-route-match.ts` (the page's first chunk
 * needs only the addresses).
 */
export interface RouteSpec {
  /** The path, or its pattern with `:callId` for the one route that names a call. */
  path: string;
  /** The one method the route takes. */
  method: "GET" | "POST";
  /** Reads or spends what only the page's own origin (or the operator) may: the request needs the token. */
  token: boolean;
  /** The page answers it for the offline models when no proxy is used. */
  inPage: boolean;
}

export const API_ROUTES = {
  session: { path: "/api/session", method: "GET", token: false, inPage: false },
  models: { path: "/api/models", method: "GET", token: false, inPage: true },
  stream: { path: "/api/stream", method: "POST", token: true, inPage: true },
  preview: { path: "/api/preview", method: "POST", token: true, inPage: true },
  payload: { path: "/api/calls/:callId/payload", method: "GET", token: false, inPage: true },
} as const satisfies Record<string, RouteSpec>;

export type ApiRouteName = keyof typeof API_ROUTES;

/** The address of a route on a proxy at `base` (its origin, and any path it is served under). */
export function apiUrl(base: string, name: Exclude<ApiRouteName, "payload">): string {
  return `${base}${API_ROUTES[name].path}`;
}

/** The path of one call's payload route. */
export function payloadPath(callId: string): string {
  return API_ROUTES.payload.path.replace(":callId", encodeURIComponent(callId));
}
