import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { CANCELLED_BEFORE_SENDING } from "../agent/call-gate.svelte.ts";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { SCHEMA_VERSION, type CallRecord } from "../storage/records.ts";
import { modelReplies, replyWithoutCall, unrecordedNote } from "./unrecorded.ts";

const reply = (timestamp: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "hi" }],
  api: "openai-completions",
  provider: "local",
  model: "m",
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp,
});

function call(seq: number, startedAt: number, replyEntryId: string): CallRecord {
  return {
    schema: SCHEMA_VERSION,
    sessionId: "s",
    seq,
    id: `call-${seq}`,
    startedAt,
    provider: "local",
    modelId: "m",
    api: "openai-completions",
    options: {},
    messageCount: 2,
    leafId: null,
    replyEntryId,
    outcome: { stopReason: "stop", usage: zeroUsage() },
    timing: { durationMs: 1 },
    capture: { messages: "all", payload: "all" },
  };
}

const facts = [
  createUserMessage("a", 1),
  reply(10),
  createInjectedAssistantMessage("prepared", 15),
  reply(20),
];
const replies = modelReplies(facts, (index) => `e${index}`);

describe("replies the calls view has no call for", () => {
  it("says a call cancelled before it was sent was never made, not that it predates recording", () => {
    const cancelled: AgentMessage = {
      ...reply(30),
      stopReason: "aborted",
      errorMessage: CANCELLED_BEFORE_SENDING,
    };
    const withCancelled = modelReplies([createUserMessage("a", 25), cancelled], (index) => `n${index}`);
    expect(withCancelled).toEqual([{ entryId: "n1", timestamp: 30, unsent: true }]);
    expect(replyWithoutCall(withCancelled[0], [])).toMatch(/^This call was cancelled while it was paused/);
    // A session whose only reply is one never sent has no call yet, and no older ones.
    expect(unrecordedNote(withCancelled, [])).toMatch(/^No model call yet/);
  });

  it("finds the model's replies on the path, not the ones prepared by hand", () => {
    expect(replies).toEqual([
      { entryId: "e1", timestamp: 10 },
      { entryId: "e3", timestamp: 20 },
    ]);
  });

  it("an old session, with replies and no calls, says its calls were made before calls were recorded", () => {
    expect(unrecordedNote(replies, [])).toBe(
      "This session's 2 model replies were made before calls were recorded, so their calls were not kept. New calls will be.",
    );
    expect(unrecordedNote(replies.slice(0, 1), [])).toBe(
      "This session's 1 model reply was made before calls were recorded, so its call was not kept. New calls will be.",
    );
  });

  it("a session recorded from some point on names the earlier replies only", () => {
    expect(unrecordedNote(replies, [call(0, 19, "e3")])).toBe(
      "1 earlier model reply was made before calls were recorded; only the calls since are kept.",
    );
    expect(unrecordedNote(replies, [call(0, 9, "e1"), call(1, 19, "e3")])).toBeUndefined();
  });

  it("a new session invites the first message", () => {
    expect(unrecordedNote([], [])).toMatch(/^No model call yet/);
  });

  it("says why a reply has no call: made before recording, or its record lost", () => {
    expect(replyWithoutCall(replies[0], [call(0, 19, "e3")])).toMatch(/made before calls were recorded/);
    expect(replyWithoutCall(replies[1], [call(0, 9, "e1")])).toMatch(/its record was not stored/);
  });
});
