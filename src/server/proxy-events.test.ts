import type { AssistantMessage, AssistantMessageEvent } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { isTerminal, sseFrame, toProxyEvent } from "./proxy-events.ts";

const usage = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const partial: AssistantMessage = {
  role: "assistant",
  content: [
    { type: "text", text: "hi", textSignature: "sig-t" },
    { type: "thinking", thinking: "hmm", thinkingSignature: "sig-th" },
    { type: "toolCall", id: "call-1", name: "calculate", arguments: { expression: "1+1" } },
  ],
  api: "x",
  provider: "p",
  model: "m",
  usage,
  stopReason: "pending",
  timestamp: 0,
};

describe("toProxyEvent", () => {
  it("strips partial from every event", () => {
    const events: AssistantMessageEvent[] = [
      { type: "start", partial },
      { type: "text_start", contentIndex: 0, partial },
      { type: "text_delta", contentIndex: 0, delta: "h", partial },
      { type: "thinking_delta", contentIndex: 1, delta: "m", partial },
      { type: "toolcall_delta", contentIndex: 2, delta: "{", partial },
    ];
    for (const event of events) expect(JSON.stringify(toProxyEvent(event))).not.toContain("partial");
  });

  it("sends content signatures on *_end", () => {
    expect(toProxyEvent({ type: "text_end", contentIndex: 0, content: "hi", partial })).toEqual({
      type: "text_end",
      contentIndex: 0,
      contentSignature: "sig-t",
    });
    expect(toProxyEvent({ type: "thinking_end", contentIndex: 1, content: "hmm", partial })).toEqual({
      type: "thinking_end",
      contentIndex: 1,
      contentSignature: "sig-th",
    });
  });

  it("names the tool call on toolcall_start and sends the whole call on toolcall_end", () => {
    expect(toProxyEvent({ type: "toolcall_start", contentIndex: 2, partial })).toEqual({
      type: "toolcall_start",
      contentIndex: 2,
      id: "call-1",
      toolName: "calculate",
    });
    const toolCall = {
      type: "toolCall" as const,
      id: "call-1",
      name: "calculate",
      arguments: { expression: "1+1" },
    };
    expect(toProxyEvent({ type: "toolcall_end", contentIndex: 2, toolCall, partial })).toEqual({
      type: "toolcall_end",
      contentIndex: 2,
      toolCall,
    });
  });

  it("keeps reason and usage on done and error", () => {
    expect(
      toProxyEvent({ type: "done", reason: "stop", message: { ...partial, stopReason: "stop" } }),
    ).toEqual({ type: "done", reason: "stop", usage });
    expect(
      toProxyEvent({
        type: "error",
        reason: "error",
        error: { ...partial, stopReason: "error", errorMessage: "boom" },
      }),
    ).toEqual({
      type: "error",
      reason: "error",
      errorMessage: "boom",
      usage,
    });
  });

  it("turns a deferred reply, which the proxy cannot stream, into an error", () => {
    const event = toProxyEvent({
      type: "done",
      reason: "deferred",
      message: { ...partial, stopReason: "deferred" },
    });
    expect(event.type).toBe("error");
    expect(isTerminal(event)).toBe(true);
  });
});

describe("sseFrame", () => {
  it("writes one data line per event, ended by a blank line", () => {
    expect(sseFrame({ type: "text_delta", contentIndex: 0, delta: "a\nb" })).toBe(
      'data: {"type":"text_delta","contentIndex":0,"delta":"a\\nb"}\n\n',
    );
  });
});
