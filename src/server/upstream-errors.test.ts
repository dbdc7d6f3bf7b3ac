import { describe, expect, it } from "vitest";
import { describeUpstreamError } from "./upstream-errors.ts";

describe("describeUpstreamError", () => {
  it("leads with the provider's HTTP status", () => {
    expect(
      describeUpstreamError("401 Incorrect API key provided", "openai", "https://api.openai.com/v1"),
    ).toBe("Provider returned 401: Incorrect API key provided");
  });

  it("explains DNS failures and refused connections with the address tried", () => {
    expect(
      describeUpstreamError("Connection error.: getaddrinfo ENOTFOUND api.x.test", "x", "https://api.x.test"),
    ).toMatch(/^Could not resolve the host of x \(https:\/\/api\.x\.test\)/);
    expect(describeUpstreamError("fetch failed: ECONNREFUSED", "local", "http://127.0.0.1:1")).toMatch(
      /^Could not reach local at http:\/\/127\.0\.0\.1:1/,
    );
  });

  it("passes other messages through and never returns nothing", () => {
    expect(describeUpstreamError("model overloaded", "p", "u")).toBe("model overloaded");
    expect(describeUpstreamError(undefined, "p", "u")).toBe("no details given");
  });
});
