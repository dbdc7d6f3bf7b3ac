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

  it("keeps back the same number of characters whatever they say: the longest secret's length, rounded up", () => {
    const scrubber = new ReplyScrubber(redactor);
    expect(scrubber.holdBack).toBe(32);
    const padding = "x".repeat(40);
    // A tail that begins a key and one that cannot are kept back alike.
    expect(scrubber.scrub(text(`${padding}sk-`))).toEqual([text(padding.slice(0, 40 + 3 - 32))]);
    const other = new ReplyScrubber(redactor);
    expect(other.scrub(text(`${padding}abc`))).toEqual([text(padding.slice(0, 40 + 3 - 32))]);
  });

  it("releases a held tail that never became a secret before the block ends", () => {
    const { sent, assembled } = streamed(["the word sk-te", "a is not a key"]);
    expect(assembled).toBe("the word sk-tea is not a key");
    const scrubber = new ReplyScrubber(redactor);
    expect(scrubber.scrub(text("ends with sk-"))).toEqual([]);
    expect(scrubber.scrub({ type: "text_end", contentIndex: 0 })).toEqual([
      text("ends with sk-"),
      { type: "text_end", contentIndex: 0 },
    ]);
    expect(sent.at(-1)?.type).toBe("done");
  });

  it("sends the whole reply scrubbed, however it is cut, in pieces whose lengths depend only on what arrived", () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const words = ["sk-", "sk-test-", KEY, "k3", "k3y", "hello ", "0123", "\n", " "];
    for (let round = 0; round < 300; round++) {
      const message = Array.from({ length: 1 + random(12) }, () => words[random(words.length)]).join("");
      const pieces: string[] = [];
      for (let at = 0; at < message.length;) {
        const size = 1 + random(9);
        pieces.push(message.slice(at, at + size));
        at += size;
      }
      expect(streamed(pieces).assembled).toBe(redactor.serialized(message));
      // The same cuts over text of the same length with no secret in it: the same pieces, shape for shape,
      // unless a whole secret was replaced.
      if (redactor.serialized(message) === message) {
        const blank = pieces.map((piece) => "z".repeat(piece.length));
        const lengths = (sent: ProxyAssistantMessageEvent[]) =>
          sent.map((event) => (event.type === "text_delta" ? event.delta.length : event.type));
        expect(lengths(streamed(pieces).sent)).toEqual(lengths(streamed(blank).sent));
      }
    }
  });

  it("releases held tails of every block before a failure", () => {
    const scrubber = new ReplyScrubber(redactor);
    expect(scrubber.scrub(text("a sk", 0))).toEqual([]);
    expect(scrubber.scrub({ type: "thinking_delta", contentIndex: 1, delta: "b k3" })).toEqual([]);
    const failure: ProxyAssistantMessageEvent = {
      type: "error",
      reason: "error",
      errorMessage: "x",
      usage: zeroUsage(),
    };
    expect(scrubber.scrub(failure)).toEqual([
      text("a sk", 0),
      { type: "thinking_delta", contentIndex: 1, delta: "b k3" },
      failure,
    ]);
  });

  it("passes events through untouched when the server has no secrets", () => {
    const scrubber = new ReplyScrubber(createRedactor({}));
    const event = text("sk-test-0123");
    expect(scrubber.scrub(event)[0]).toBe(event);
  });
});
