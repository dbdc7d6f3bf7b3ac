import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import type { LiveCall } from "../../shared/live/live-protocol.ts";
import { piMessages, piSession } from "../model-view/pi-sessions.test-support.ts";
import type { SessionEntry } from "../messages/entries.ts";
import { alignTranscript, canonicalJson, liveCallRecord, liveTitle } from "./live-record.ts";
import { liveSessionId } from "./live-session-id.ts";

/**
 * A live pi's session and calls as the page records them, checked against pi's own code: a session built
 * with pi's SessionManager, its context as pi's buildSessionContext makes it, converted by pi's convertToLlm.
 */

const usage = {
  input: 10,
  output: 4,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 14,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** A pi session as pi's SessionManager keeps it: a prompt, a tool call and its result, a custom message. */
function piSessionEntries() {
  const manager = piSession.SessionManager.inMemory("/work/pi/my-project");
  manager.appendMessage({ role: "system", content: "You are pi.", timestamp: 1 });
  manager.appendMessage({
    role: "user",
    content: [{ type: "text", text: "Read the notes, please" }],
    timestamp: 2,
  });
  manager.appendMessage({
    role: "assistant",
    content: [{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "notes.txt" } }],
    api: "openai-completions",
    provider: "fixture",
    model: "fixture-pi",
    usage,
    stopReason: "toolUse",
    timestamp: 3,
  });
  manager.appendMessage({
    role: "toolResult",
    toolCallId: "call-1",
    toolName: "read",
    content: [{ type: "text", text: "The build is green." }],
    isError: false,
    timestamp: 4,
  });
  manager.appendCustomMessageEntry("notification", "Deploy started", true, { level: "info" });
  return manager;
}

describe("a live session's name and id", () => {
  it("is pi · folder · pi's name for it, else its first prompt", () => {
    const manager = piSessionEntries();
    const entries = manager.getEntries() as SessionEntry[];
    expect(liveTitle({ cwd: "/work/pi/my-project" }, entries)).toBe(
      "pi · my-project · Read the notes, please",
    );
    manager.appendSessionInfo("Release checklist");
    expect(liveTitle({ cwd: "/work/pi/my-project/" }, manager.getEntries() as SessionEntry[])).toBe(
      "pi · my-project · Release checklist",
    );
    expect(liveTitle({ cwd: "C:\\Users\\me\\repo" }, [])).toBe("pi · repo · new session");
    expect(liveSessionId({ type: "session", id: "0199-abc" })).toBe("pi-0199-abc");
  });
});

describe("pi's transcript beside the projection of the entries", () => {
  it("finds every message of pi's own context among the facts when no extension changed it", () => {
    const manager = piSessionEntries();
    const entries = manager.getEntries() as SessionEntry[];
    // What pi sends: its session context, as pi builds it.
    const transcript = piSession.buildSessionContext(entries).messages;
    const alignment = alignTranscript(transcript, entries, manager.getLeafId());
    expect(alignment.factOf).toEqual([0, 1, 2, 3, 4]);
    expect(alignment.notSent).toEqual([]);
  });

  it("flags a message an extension changed or added, and one it removed", () => {
    const manager = piSessionEntries();
    const entries = manager.getEntries() as SessionEntry[];
    const context = piSession.buildSessionContext(entries).messages as AgentMessage[];
    // A context handler that redacts the tool result and drops the notification, and adds a reminder.
    const rewritten: AgentMessage[] = [
      ...context.slice(0, 3),
      {
        ...(context[3] as AgentMessage & { role: "toolResult" }),
        content: [{ type: "text", text: "[hidden]" }],
      },
      { role: "user", content: "Remember the style guide.", timestamp: 9 },
    ];
    const alignment = alignTranscript(rewritten, entries, manager.getLeafId());
    expect(alignment.factOf).toEqual([0, 1, 2, null, null]);
    expect(alignment.notSent).toEqual([3, 4]);
  });

  it("compares messages whatever order their fields were written in", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }),
    );
  });
});

describe("a live call as the page records it", () => {
  it("traces each model-view message to its fact through pi's transcript, and keeps pi's layer", () => {
    const manager = piSessionEntries();
    const entries = manager.getEntries() as SessionEntry[];
    const transcript = piSession.buildSessionContext(entries).messages as AgentMessage[];
    const perMessage = transcript.map((message) => piMessages.convertToLlm([message]));
    const messages = perMessage.flat();
    const call: LiveCall = {
      id: "live-call-1",
      startedAt: 1000,
      provider: "fixture",
      modelId: "fixture-pi",
      api: "openai-completions",
      thinkingLevel: "off",
      leafId: manager.getLeafId(),
      replyEntryId: "reply-entry",
      transcript: { kept: "all", bytes: 1, value: transcript },
      messages: { kept: "all", bytes: 1, value: messages },
      messageSources: perMessage.flatMap((out, index) => out.map(() => index)),
      payload: { kept: "all", bytes: 2, value: { model: "fixture-pi" } },
      response: { status: 200, headers: { "x-request-id": "req-1" } },
      outcome: { stopReason: "stop", usage },
      timing: { firstTokenMs: 100, durationMs: 300 },
    };
    const { summary, body } = liveCallRecord(call, entries);
    expect(body.sources).toEqual(entries.slice(0, 5).map((entry) => entry.id));
    expect(body.messages).toBe(call.messages);
    expect(body.pi).toEqual({ transcript: call.transcript, response: call.response });
    expect(summary).toMatchObject({
      id: "live-call-1",
      provider: "fixture",
      messageCount: 5,
      replyEntryId: "reply-entry",
      options: { thinkingLevel: "off" },
      outcome: { stopReason: "stop", usage },
      timing: { firstTokenMs: 100, durationMs: 300, outputTokensPerSecond: 20 },
      capture: { messages: "all", payload: "all" },
    });
  });

  it("keeps a call whose parts were cut, without tracing what it cannot see", () => {
    const call: LiveCall = {
      id: "live-call-2",
      startedAt: 1,
      provider: "p",
      modelId: "m",
      api: "a",
      leafId: null,
      transcript: { kept: "truncated", bytes: 9_000_000, text: "[{" },
      messages: { kept: "none", bytes: 0, reason: "too large" },
      payload: { kept: "none", bytes: 0, reason: "pi did not hand it over" },
      outcome: { stopReason: "error", errorMessage: "boom" },
      timing: { durationMs: 5 },
    };
    const { summary, body } = liveCallRecord(call, []);
    expect(body.sources).toEqual([]);
    expect(summary.outcome.usage.totalTokens).toBe(0);
    expect(summary.outcome.errorMessage).toBe("boom");
    expect(summary.capture).toMatchObject({ messages: "none", payload: "none" });
  });
});
