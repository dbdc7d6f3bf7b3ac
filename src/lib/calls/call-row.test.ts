import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION, type CallRecord } from "../storage/records.ts";
import { formatTime } from "../ui/format.ts";
import { callLine, callRowLabel } from "./call-row.ts";

const call: CallRecord = {
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
    expect(callLine(call)).toBe(
      "4 msgs · in 1,200 · cached 800 · out 30 · $0.01 · 1.25 s · first token 140 ms",
    );
  });

  it("is named by what it shows, in that order, so speech and sight agree", () => {
    expect(callRowLabel(call)).toBe(
      `Call #3 local/fixture-tools, tool use, ${formatTime(call.startedAt)}. ${callLine(call)}`,
    );
  });
});
