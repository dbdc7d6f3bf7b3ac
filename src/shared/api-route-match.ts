import { API_ROUTES, type ApiRouteName, type RouteSpec } from "./api-routes.ts";
import { payloadRouteCallId } from "./payloads/payload-route.ts";

export interface MatchedRoute {
  name: ApiRouteName;
  spec: RouteSpec;
  /** The call a payload route names (checked). */
  callId?: string;
}

const BY_PATH = new Map<string, ApiRouteName>(
  (Object.keys(API_ROUTES) as ApiRouteName[])
    .filter((name) => name !== "payload")
    .map((name) => [API_ROUTES[name].path, name]),
);

/** The route `path` names, or undefined. A payload route with a malformed call id throws a 400. */
export function matchApiRoute(path: string): MatchedRoute | undefined {
  const name = BY_PATH.get(path);
  if (name) return { name, spec: API_ROUTES[name] };
  const callId = payloadRouteCallId(path);
  return callId === undefined ? undefined : { name: "payload", spec: API_ROUTES.payload, callId };
}
