import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION, type CallRecord } from "../storage/records.ts";
import { formatTime } from "../ui/format.ts";
import { callLine, callRowLabel, callSearchText } from "./call-row.ts";

const usage = {
  input: 40,
  output: 0,
  cacheRead: 1_200,
  cacheWrite: 0,
  totalTokens: 1_240,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function call(outcome: CallRecord["outcome"]): CallRecord {
  return {
    schema: 2,
    sessionId: "s",
    seq: 0,
    id: "c",
    startedAt: 1,
    provider: "mirror",
    modelId: "mirror",
    api: "mirror",
    options: {},
    messageCount: 3,
    leafId: null,
    outcome,
    timing: { durationMs: 1_500, firstTokenMs: 120 },
    capture: { messages: "all", payload: "all" },
  };
}

describe("a call's line in the calls view", () => {
  it("uses the words of every other token number: input, cached and output apart", () => {
    expect(callLine(call({ stopReason: "stop", usage: { ...usage, output: 9 } }))).toBe(
      "3 msgs · in 40 · cached 1,200 · out 9 · $0 · 1.50 s · first token 120 ms",
    );
  });

  it("counts what streamed for a call stopped before the provider reported usage, as an estimate", () => {
    const stopped = call({
      stopReason: "aborted",
      usage: { ...usage, input: 0, cacheRead: 0 },
      outputEstimate: 14,
    });
    expect(callLine(stopped)).toContain("out ≈ 14 (estimate)");
    // A damaged estimate in storage is not taken for one.
    const damaged = {
      ...stopped,
      outcome: { ...stopped.outcome, outputEstimate: "14" as unknown as number },
    };
    expect(callLine(damaged)).toContain("out 0 ·");
  });
});

const toolUseCall: CallRecord = {
  schema: SCHEMA_VERSION,
  sessionId: "s",
  seq: 2,
  id: "call-3",
  startedAt: Date.UTC(2026, 0, 1, 10, 30, 5),
  provider: "local",
  modelId: "fixture-tools",
  api: "openai-completions",
  options: {},
  messageCount: 4,
  leafId: null,
  outcome: {
    stopReason: "toolUse",
    usage: {
      input: 1_200,
      output: 30,
      cacheRead: 800,
      cacheWrite: 0,
      totalTokens: 2_030,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.0123 },
    },
  },
  timing: { firstTokenMs: 140, durationMs: 1_250 },
  capture: { messages: "all", payload: "all" },
};

describe("a row of the calls list", () => {
  it("tells size, tokens, cost and timing on one line", () => {
    expect(callLine(toolUseCall)).toBe(
      "4 msgs · in 1,200 · cached 800 · out 30 · $0.01 · 1.25 s · first token 140 ms",
    );
  });

  it("is named by what it shows, in that order, so speech and sight agree", () => {
    expect(callRowLabel(toolUseCall)).toBe(
      `Call #3 local/fixture-tools, tool use, ${formatTime(toolUseCall.startedAt)}. ${callLine(toolUseCall)}`,
    );
  });
});

describe("what a search in the calls list reads", () => {
  it("is the row's text, the stop reason as pi names it, the API and the error", () => {
    const failed = call({ stopReason: "error", usage, errorMessage: "rate limited (429)" });
    const text = callSearchText({ ...failed, modelId: "claude-sonnet-4-5", provider: "anthropic" });
    expect(text).toContain("anthropic/claude-sonnet-4-5");
    expect(text).toContain("rate limited (429)");
    expect(text).toContain("error");
    expect(callSearchText(toolUseCall)).toContain("toolUse");
    expect(callSearchText(toolUseCall)).toContain("tool use");
  });
});
