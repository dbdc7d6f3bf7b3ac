import { describe, expect, it } from "vitest";
import { DEFAULT_STORAGE_LIMITS, storageLimits } from "./storage-limits.ts";

describe("storage limits", () => {
  it("take the build's variables, and the defaults for anything unset or unusable", () => {
    expect(storageLimits({})).toEqual(DEFAULT_STORAGE_LIMITS);
    expect(storageLimits({ VITE_STORAGE_SLOW_MS: "500", VITE_STORAGE_OPEN_TIMEOUT_MS: "20000" })).toEqual({
      slowAfterMs: 500,
      openTimeoutMs: 20_000,
    });
    expect(storageLimits({ VITE_STORAGE_SLOW_MS: "-1", VITE_STORAGE_OPEN_TIMEOUT_MS: "soon" })).toEqual(
      DEFAULT_STORAGE_LIMITS,
    );
  });
});
