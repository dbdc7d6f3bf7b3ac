import type { AssistantMessage, AssistantMessageEvent } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { isTerminal, proxyEventStream, sseFrame, toProxyEvent } from "./proxy-events.ts";

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

describe("proxyEventStream", () => {
  async function collect(
    events: AsyncIterable<AssistantMessageEvent>,
    describe?: Parameters<typeof proxyEventStream>[1],
  ) {
    const out = [];
    for await (const event of proxyEventStream(events, describe)) out.push(event);
    return out;
  }
  async function* upstream(...events: AssistantMessageEvent[]): AsyncGenerator<AssistantMessageEvent> {
    yield* events;
  }
  const done: AssistantMessageEvent = {
    type: "done",
    reason: "stop",
    message: { ...partial, stopReason: "stop" },
  };

  it("maps every event and stops at the terminal one, ignoring anything after it", async () => {
    const events = await collect(upstream({ type: "start", partial }, done, { type: "start", partial }));
    expect(events.map((event) => event.type)).toEqual(["start", "done"]);
  });

  it("ends a stream that stops early with an error, so the client never waits for nothing", async () => {
    const events = await collect(upstream({ type: "start", partial }));
    expect(events.at(-1)).toMatchObject({
      type: "error",
      reason: "error",
      errorMessage: "The provider's stream ended without a final event.",
    });
  });

  it("turns an upstream that throws into an error event", async () => {
    async function* failing(): AsyncGenerator<AssistantMessageEvent> {
      yield { type: "start", partial };
      throw new Error("socket closed");
    }
    const events = await collect(failing());
    expect(events.map((event) => event.type)).toEqual(["start", "error"]);
    expect(events[1]).toMatchObject({ errorMessage: "The proxy failed while streaming: socket closed" });
  });

  it("passes error events through the description, and names an abort that came without text", async () => {
    const aborted: AssistantMessageEvent = {
      type: "error",
      reason: "aborted",
      error: { ...partial, stopReason: "aborted" },
    };
    expect((await collect(upstream(aborted)))[0]).toMatchObject({ errorMessage: "Request was aborted" });
    const described = await collect(upstream(aborted), (event) => ({ ...event, errorMessage: "described" }));
    expect(described[0]).toMatchObject({ errorMessage: "described" });
  });
});
