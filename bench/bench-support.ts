import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../src/lib/messages/policies.ts";
import { defaultSettings } from "../src/lib/agent/session-settings.ts";
import { SCHEMA_VERSION, type SessionMeta } from "../src/lib/storage/records.ts";

/** What the browser benchmarks share: the context settings, a timer for short work, session metadata. */

export const SETTINGS: ContextSettings = {
  ...DEFAULT_CONTEXT_SETTINGS,
  policies: { notification: "userText", approval_request: "hidden", progress: "hidden" },
};

/** Milliseconds per call, repeating the call until the clock (coarsened to 0.1 ms in browsers) can resolve it. */
export function time(work: () => unknown, minimumMs = 25): number {
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    work();
    calls++;
    elapsed = performance.now() - started;
  } while (elapsed < minimumMs);
  return elapsed / calls;
}

/**
 * Collect garbage now, where the browser allows it (the benchmark starts Chromium with `--expose-gc`):
 * before a single-call timing, so that neither side pays for the garbage the other left.
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === "function") gc();
}

export function meta(id: string, count: number): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: id,
    titleIsCustom: true,
    createdAt: 0,
    updatedAt: 0,
    messageCount: count,
    nextSeq: count,
    revision: 0,
    leafId: null,
    settings: defaultSettings(),
  };
}
