import { describe, expect, it } from "vitest";
import { MemoryKeyValueStore } from "../storage/kv.ts";
import { CallPreferences } from "./call-preferences.svelte.ts";

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
});
