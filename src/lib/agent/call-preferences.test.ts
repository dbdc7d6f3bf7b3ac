import { describe, expect, it } from "vitest";
import { MemoryKeyValueStore } from "../storage/kv.ts";
import { CallPreferences, MAX_TOOL_CALLS_PER_RUN } from "./call-preferences.svelte.ts";

describe("CallPreferences", () => {
  it("remembers the Mirror speed, and starts every page with pausing off", async () => {
    const store = new MemoryKeyValueStore();
    const first = new CallPreferences(() => store);
    first.setPauseBeforeCalls(true);
    await first.setMirrorSpeed(5);
    const next = new CallPreferences(() => store);
    await next.restore();
    expect(next.mirrorSpeed).toBe(5);
    expect(next.pauseBeforeCalls).toBe(false);
    await next.setMirrorSpeed(undefined);
    const third = new CallPreferences(() => store);
    await third.restore();
    expect(third.mirrorSpeed).toBeUndefined();
  });

  it("ignores a stored speed it does not offer, and never overrides a choice made before it was read", async () => {
    const store = new MemoryKeyValueStore();
    await store.set("mirror-speed", 7);
    const preferences = new CallPreferences(() => store);
    await preferences.restore();
    expect(preferences.mirrorSpeed).toBeUndefined();
    await store.set("mirror-speed", 300);
    const late = new CallPreferences(() => store);
    const restoring = late.restore();
    void late.setMirrorSpeed(15);
    await restoring;
    expect(late.mirrorSpeed).toBe(15);
  });

  it("remembers the tool calls a run may make in a row, and refuses a limit that is not a whole number in range", async () => {
    const store = new MemoryKeyValueStore();
    const first = new CallPreferences(() => store);
    expect(first.toolCallsPerRun).toBe(50);
    for (const bad of [0, -1, 2.5, Number.NaN, MAX_TOOL_CALLS_PER_RUN + 1])
      expect(first.setToolCallsPerRun(bad)).toBe(false);
    expect(first.toolCallsPerRun).toBe(50);
    expect(first.setToolCallsPerRun(3)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const next = new CallPreferences(() => store);
    await next.restore();
    expect(next.toolCallsPerRun).toBe(3);
    // A stored value nobody could have set is ignored.
    await store.set("tool-calls-per-run", "9");
    const third = new CallPreferences(() => store);
    await third.restore();
    expect(third.toolCallsPerRun).toBe(50);
  });
});
