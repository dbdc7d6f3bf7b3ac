import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../shared/usage.ts";
import { createRedactor } from "./redact.ts";
import { ReplyScrubber } from "./reply-scrubber.ts";

const KEY = "sk-test-0123456789abcdef";
const redactor = createRedactor({ OPENAI_API_KEY: KEY, LOCAL_OPENAI_API_KEY: "k3y" });

const text = (delta: string, contentIndex = 0): ProxyAssistantMessageEvent => ({
  type: "text_delta",
  contentIndex,
  delta,
});

/** Stream `pieces` through a scrubber, as the proxy does, and return what the client would assemble. */
function streamed(
  pieces: string[],
  chunked = true,
): { sent: ProxyAssistantMessageEvent[]; assembled: string } {
  const scrubber = new ReplyScrubber(redactor);
  const events: ProxyAssistantMessageEvent[] = [
    { type: "text_start", contentIndex: 0 },
    ...(chunked ? pieces : [pieces.join("")]).map((piece) => text(piece)),
    { type: "text_end", contentIndex: 0 },
    { type: "done", reason: "stop", usage: zeroUsage() },
  ];
  const sent = events.flatMap((event) => scrubber.scrub(event));
  const assembled = sent.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
  return { sent, assembled };
}

describe("ReplyScrubber", () => {
  it("scrubs a key split across two deltas", () => {
    const { assembled } = streamed(["Your key is sk-test-0123", "456789abcdef, keep it safe."]);
    expect(assembled).toBe("Your key is [redacted], keep it safe.");
  });

  it("scrubs a key split into many tiny deltas, and a three-character key too", () => {
    const message = `Authorization: Bearer ${KEY} and k3y`;
    const pieces = message.match(/.{1,2}/g) ?? [];
    const { assembled, sent } = streamed(pieces);
    expect(assembled).toBe("Authorization: Bearer [redacted] and [redacted]");
    expect(JSON.stringify(sent)).not.toContain("k3y");
    expect(sent.map((event) => event.type).slice(-2)).toEqual(["text_end", "done"]);
  });

  it("holds nothing back when no tail could start a secret, so text streams as it comes", () => {
    const scrubber = new ReplyScrubber(redactor);
    expect(scrubber.scrub(text("hello world"))).toEqual([text("hello world")]);
  });

  it("releases a held tail that never became a secret before the block ends", () => {
    const { sent, assembled } = streamed(["the word sk-te", "a is not a key"]);
    expect(assembled).toBe("the word sk-tea is not a key");
    const scrubber = new ReplyScrubber(redactor);
    expect(scrubber.scrub(text("ends with sk-"))).toEqual([text("ends with ")]);
    expect(scrubber.scrub({ type: "text_end", contentIndex: 0 })).toEqual([
      text("sk-"),
      { type: "text_end", contentIndex: 0 },
    ]);
    expect(sent.at(-1)?.type).toBe("done");
  });

  it("releases held tails of every block before a failure", () => {
    const scrubber = new ReplyScrubber(redactor);
    scrubber.scrub(text("a sk", 0));
    scrubber.scrub({ type: "thinking_delta", contentIndex: 1, delta: "b k3" });
    const failure: ProxyAssistantMessageEvent = {
      type: "error",
      reason: "error",
      errorMessage: "x",
      usage: zeroUsage(),
    };
    expect(scrubber.scrub(failure)).toEqual([
      text("sk", 0),
      { type: "thinking_delta", contentIndex: 1, delta: "k3" },
      failure,
    ]);
  });

  it("passes events through untouched when the server has no secrets", () => {
    const scrubber = new ReplyScrubber(createRedactor({}));
    const event = text("sk-test-0123");
    expect(scrubber.scrub(event)[0]).toBe(event);
  });
});
