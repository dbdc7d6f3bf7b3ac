import { describe, expect, it } from "vitest";
import { API_ROUTES, payloadPath } from "../shared/api-routes.ts";
import { needsToken, routeOf, TOKEN_ROUTES } from "./api-routes.ts";
import { LIVE_PAGE_ROUTES } from "./live/live-routes.ts";

describe("the server's routes", () => {
  it("are the shared table's, each with its method and token, plus the live pi routes", () => {
    for (const [name, spec] of Object.entries(API_ROUTES)) {
      const path = name === "payload" ? payloadPath("call-id-0001") : spec.path;
      expect(routeOf(path), path).toEqual({
        method: spec.method,
        ...(name === "payload" ? { callIdSegment: "call-id-0001" } : {}),
      });
      expect(TOKEN_ROUTES.has(spec.path), path).toBe(spec.token);
      if (spec.token) expect(needsToken(path)).toBe(true);
    }
    for (const [path, method] of Object.entries(LIVE_PAGE_ROUTES)) {
      expect(routeOf(path)).toEqual({ method });
      expect(needsToken(path)).toBe(true);
    }
    expect(routeOf("/api/nothing")).toBeUndefined();
  });
});
