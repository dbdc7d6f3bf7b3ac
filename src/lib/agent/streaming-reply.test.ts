import type { AssistantMessage } from "@earendil-works/pi-ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createInjectedAssistantMessage } from "../messages/factories.ts";
import { SHOW_INTERVAL_MS } from "./show-pacer.ts";
import { StreamingReply } from "./streaming-reply.svelte.ts";

function partial(text: string): AssistantMessage {
  return { ...createInjectedAssistantMessage(text), stopReason: "pending" };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("StreamingReply", () => {
  function setup() {
    const saved: AssistantMessage[] = [];
    const reply = new StreamingReply({ save: async (message) => void saved.push(message) });
    return { reply, saved };
  }

  it("shows on a frame at most every SHOW_INTERVAL_MS, with everything received by then", () => {
    const { reply } = setup();
    reply.start(partial(""));
    reply.update(partial("a"));
    reply.update(partial("ab"));
    // The next frame comes too soon after the start was shown: the reply waits for a later one.
    vi.advanceTimersByTime(16);
    expect(reply.current?.content).toEqual([{ type: "text", text: "" }]);
    reply.update(partial("abc"));
    vi.advanceTimersByTime(16);
    expect(reply.current?.content).toEqual([{ type: "text", text: "abc" }]);
    // Tokens arriving over the following frames are shown together, once the interval has passed again.
    reply.update(partial("abcd"));
    vi.advanceTimersByTime(16);
    reply.update(partial("abcde"));
    expect(reply.current?.content).toEqual([{ type: "text", text: "abc" }]);
    vi.advanceTimersByTime(16);
    expect(reply.current?.content).toEqual([{ type: "text", text: "abcde" }]);
    expect(SHOW_INTERVAL_MS).toBeGreaterThan(16);
    expect(SHOW_INTERVAL_MS).toBeLessThanOrEqual(34);
  });

  it("shows a copy, so the stream's in-place mutations cannot change what is shown", () => {
    const { reply } = setup();
    const message = partial("one");
    reply.start(message);
    (message.content[0] as { text: string }).text = "changed";
    expect(reply.current?.content).toEqual([{ type: "text", text: "one" }]);
  });

  it("saves the reply in flight now and then, and at once when asked", () => {
    const { reply, saved } = setup();
    reply.start(partial(""));
    reply.update(partial("a"));
    reply.update(partial("ab"));
    expect(saved.map((message) => message.content)).toEqual([[{ type: "text", text: "a" }]]);
    reply.update(partial("abc"));
    reply.saveNow();
    expect(saved.at(-1)?.content).toEqual([{ type: "text", text: "abc" }]);
  });

  it("shows nothing once stopped, even with a frame still due", () => {
    const { reply } = setup();
    reply.start(partial("x"));
    reply.update(partial("xy"));
    reply.stop();
    vi.advanceTimersByTime(16);
    expect(reply.current).toBeUndefined();
  });
});
