import { positiveInt } from "../../shared/positive-int.ts";

/**
 * How long the page waits for the browser's storage before it says so, and before it goes on in memory by
 * itself (a browser whose IndexedDB never answers must not leave the page blank). Set at build time:
 * `VITE_STORAGE_SLOW_MS=… VITE_STORAGE_OPEN_TIMEOUT_MS=… npm start`.
 */
export interface StorageLimits {
  /** After this long, the page says storage is not answering and offers to go on in memory. */
  slowAfterMs: number;
  /** After this long, it goes on in memory without being asked. */
  openTimeoutMs: number;
}

export const DEFAULT_STORAGE_LIMITS: StorageLimits = { slowAfterMs: 2_500, openTimeoutMs: 8_000 };

export function storageLimits(env: Record<string, unknown>): StorageLimits {
  return {
    slowAfterMs: positiveInt(env.VITE_STORAGE_SLOW_MS) ?? DEFAULT_STORAGE_LIMITS.slowAfterMs,
    openTimeoutMs: positiveInt(env.VITE_STORAGE_OPEN_TIMEOUT_MS) ?? DEFAULT_STORAGE_LIMITS.openTimeoutMs,
  };
}
