import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../messages/entries.ts";
import type { CallRecord } from "../storage/records.ts";
import { analyze, syntheticSession, system, usage } from "./anatomy.test-support.ts";
import { rebill } from "./rebilling.ts";
import { readBody } from "./session-anatomy.ts";

describe("re-billing per fact", () => {
  it("equals the table computed by hand", () => {
    const session = syntheticSession();
    const { bills, counted, unknown } = rebill(analyze(session));
    // Call 1: 600 tokens over 400 + 200 chars → system 400, user 200.
    // Call 2: 4,600 tokens over 400 + 200 + 11 + 3,989 = 4,600 chars → one token per char.
    // Call 3: 5,000 tokens over 5,200 chars, first by category: system, user text and assistant text
    //   400 chars each → 384.6, tool calls 11 → 10.6, tool results 3,989 → 3,835.6. Floors add up to
    //   4,997; the 3 left go to the largest remainders (.615 ×3): system 385, user text 385, assistant
    //   text 385, tool calls 10, tool results 3,835. User text's 385 between its two 200-char messages:
    //   192.5 each, the one left over to the first → 193 and 192.
    const table = bills.map((bill) => ({ id: bill.entryId, calls: bill.calls, tokens: bill.tokens }));
    expect(table).toEqual([
      { id: session.id(3), calls: 2, tokens: 3_989 + 3_835 },
      { id: session.id(0), calls: 3, tokens: 400 + 400 + 385 },
      { id: session.id(1), calls: 3, tokens: 200 + 200 + 193 },
      { id: session.id(4), calls: 1, tokens: 385 },
      { id: session.id(5), calls: 1, tokens: 192 },
      { id: session.id(2), calls: 2, tokens: 11 + 10 },
    ]);
    expect(counted).toBe(3);
    expect(unknown).toBe(0);
    // Every call's tokens are billed to its facts, no more, no less.
    expect(bills.reduce((sum, bill) => sum + bill.tokens, 0)).toBe(600 + 4_600 + 5_000);
  });

  it("leaves out calls whose messages were not kept, and says how many", () => {
    const session = syntheticSession();
    session.bodies[1] = readBody(undefined);
    const { bills, counted, unknown } = rebill(analyze(session));
    expect([counted, unknown]).toEqual([2, 1]);
    expect(bills.find((bill) => bill.entryId === session.id(0))?.calls).toBe(2);
  });
});

describe("the calls' anatomy", () => {
  it("takes each call's context size from its usage, its window and its cost, cumulated", () => {
    const calls = analyze();
    expect(calls.map((call) => [call.contextTokens, call.basis, call.window])).toEqual([
      [600, "usage", 10_000],
      [4_600, "usage", 10_000],
      [5_000, "usage", 10_000],
    ]);
    expect(calls.map((call) => call.cumulativeCost)).toEqual([0.01, 0.03, 0.06]);
    expect(calls.map((call) => call.cacheRead)).toEqual([0, 4_500, 4_000]);
  });

  it("says what it cannot know: no usage, no body, no window", () => {
    const session = syntheticSession();
    session.calls[2] = {
      ...(session.calls[2] as CallRecord),
      outcome: { stopReason: "error", usage: usage(0, 0) },
    };
    session.bodies[1] = readBody({
      schema: 2,
      sessionId: "s",
      seq: 1,
      messages: { kept: "truncated", text: "[", bytes: 90_000 },
      sources: [],
      payload: { kept: "none", bytes: 0, reason: "x" },
    });
    const calls = analyze(session, () => undefined);
    expect(calls[1]?.unknown).toBe("its messages were cut at 1 bytes of 90,000");
    expect(calls[1]?.basis).toBe("usage");
    expect(calls[2]?.basis).toBe("estimate");
    expect(calls[2]?.contextTokens).toBeGreaterThan(0);
    expect(calls.every((call) => call.window === undefined)).toBe(true);
  });

  it("marks compactions, model and thinking changes and system prompt edits between calls", () => {
    const session = syntheticSession();
    const compaction = {
      type: "compaction",
      id: "cmp",
      parentId: session.id(3),
      timestamp: new Date(2_500).toISOString(),
      summary: "s",
      firstKeptEntryId: session.id(1),
      tokensBefore: 4_600,
    } as SessionEntry;
    session.entries.push(compaction);
    session.calls[2] = {
      ...(session.calls[2] as CallRecord),
      modelId: "mirror-thinking",
      options: { reasoning: "low" },
    };
    const edited = [
      system("T".repeat(400)),
      ...(session.bodies[2] as { messages: Message[] }).messages.slice(1),
    ];
    session.bodies[2] = { ...(session.bodies[2] as { sources: string[] }), kind: "kept", messages: edited };
    const calls = analyze(session);
    expect(calls[1]?.changes).toEqual([]);
    expect(calls[2]?.changes.map((change) => change.kind)).toEqual([
      "compaction",
      "model",
      "thinking",
      "systemPrompt",
    ]);
    expect(calls[2]?.cacheBreak?.cause).toMatch(
      /model changed from mirror\/mirror to mirror\/mirror-thinking/,
    );
  });
});
