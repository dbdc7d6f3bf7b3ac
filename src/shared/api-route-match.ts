import { API_ROUTES, type ApiRouteName, type RouteSpec } from "./api-routes.ts";
import { payloadRouteSegment } from "./payloads/payload-route.ts";

export interface MatchedRoute {
  name: ApiRouteName;
  spec: RouteSpec;
  /**
   * The call a payload route names, as the address has it: still percent-encoded and unchecked, for the
   * route's guards run first. `decodeCallId` reads it.
   */
  callIdSegment?: string;
}

const BY_PATH = new Map<string, ApiRouteName>(
  (Object.keys(API_ROUTES) as ApiRouteName[])
    .filter((name) => name !== "payload")
    .map((name) => [API_ROUTES[name].path, name]),
);

/** The route `path` names, or undefined. Never throws: whatever the address holds is read after the guards. */
export function matchApiRoute(path: string): MatchedRoute | undefined {
  const name = BY_PATH.get(path);
  if (name) return { name, spec: API_ROUTES[name] };
  const callIdSegment = payloadRouteSegment(path);
  return callIdSegment === undefined
    ? undefined
    : { name: "payload", spec: API_ROUTES.payload, callIdSegment };
}
