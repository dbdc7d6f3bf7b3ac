import { describe, expect, it, vi } from "vitest";
import { MemoryKeyValueStore } from "../storage/kv.ts";
import { ComposerDraft } from "./composer-draft.svelte.ts";

describe("ComposerDraft", () => {
  it("keeps what is typed, so a new page restores it", async () => {
    vi.useFakeTimers();
    try {
      const store = new MemoryKeyValueStore();
      const draft = new ComposerDraft(store, "s1");
      draft.set({ text: "half a thought" });
      await vi.advanceTimersByTimeAsync(300);
      const reloaded = new ComposerDraft(store, "s1");
      await reloaded.restore();
      expect(reloaded.text).toBe("half a thought");
      const otherSession = new ComposerDraft(store, "s2");
      await otherSession.restore();
      expect(otherSession.text).toBe("");
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives a prompt back when the session could not take it, and forgets it when it did", async () => {
    const store = new MemoryKeyValueStore();
    const draft = new ComposerDraft(store, "s1");
    draft.set({ text: "refused" });
    expect(await draft.submit(async () => false)).toBe(false);
    expect(draft.text).toBe("refused");
    expect(await draft.submit(async ({ text }) => text === "refused")).toBe(true);
    expect(draft.text).toBe("");
    await draft.flush();
    expect(await store.get("composer:s1")).toBeUndefined();
  });

  it("keeps both a refused prompt and what was typed meanwhile", async () => {
    const draft = new ComposerDraft(new MemoryKeyValueStore(), "s1");
    draft.set({ text: "first" });
    const sending = draft.submit(async () => {
      draft.set({ text: "second" });
      return false;
    });
    await sending;
    expect(draft.text).toBe("first\nsecond");
  });
});
