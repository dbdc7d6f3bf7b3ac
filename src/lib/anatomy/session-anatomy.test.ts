import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../messages/entries.ts";
import type { CallRecord } from "../storage/records.ts";
import { analyze, syntheticSession, system, usage } from "./anatomy.test-support.ts";
import { readBody } from "./call-body.ts";

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
