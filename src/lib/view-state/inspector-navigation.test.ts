import { describe, expect, it } from "vitest";
import { CallLog } from "../agent/recording/call-log.svelte.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { testNewCall } from "../storage/call-record.test-support.ts";
import { InspectorNavigation } from "./inspector-navigation.svelte.ts";
import { testSessionMeta } from "../storage/session-meta.test-support.ts";

async function logWithReplies(...replies: (string | undefined)[]) {
  const store = new MemorySessionStore();
  await store.createSession(testSessionMeta("s", { title: "t", createdAt: 0, updatedAt: 0 }), []);
  for (const reply of replies) await store.appendCall("s", testNewCall(reply ? { replyEntryId: reply } : {}));
  return new CallLog(store, "s");
}

describe("the call selection shared by the chat and the inspector", () => {
  it("opens the calls view on the call that produced a reply, once the calls are read", async () => {
    const log = await logWithReplies("r1", undefined, "r3");
    const selection = new InspectorNavigation(() => log);
    expect(selection.view).toBe("facts");

    selection.showReply("r3");
    expect(selection.view).toBe("calls");
    expect(selection.selected).toBeUndefined();
    expect(selection.replyUnrecorded).toBe(false);
    await log.load();
    expect(selection.selected).toBe(2);
    expect(selection.reply).toBe("r3");
  });

  it("says when no recorded call produced the reply", async () => {
    const log = await logWithReplies("r1");
    await log.load();
    const selection = new InspectorNavigation(() => log);
    selection.showReply("older");
    expect(selection.selected).toBeUndefined();
    expect(selection.replyUnrecorded).toBe(true);
  });

  it("a call chosen in the list replaces the question or the preview, and asking again scrolls again", async () => {
    const log = await logWithReplies("r1", "r2");
    await log.load();
    const selection = new InspectorNavigation(() => log);
    selection.showReply("r1");
    const first = selection.revealNonce;
    selection.showReply("r1");
    expect(selection.revealNonce).not.toBe(first);
    selection.showPreview();
    expect(selection.previewing).toBe(true);
    expect(selection.selected).toBeUndefined();
    selection.choose(1);
    expect(selection.selected).toBe(1);
    expect(selection.reply).toBeUndefined();
    expect(selection.previewing).toBe(false);
    selection.showFacts();
    expect(selection.view).toBe("facts");
  });
});
