import { zeroUsage } from "../../shared/usage.ts";
import { SCHEMA_VERSION, type CallRecord, type NewCall } from "./records.ts";

type CallSummary = NewCall["summary"];

/** A Mirror call's summary for tests: two messages, stopped, nothing of note; `patch` gives what matters. */
export function testCallSummary(patch: Partial<CallSummary> = {}): CallSummary {
  return {
    id: crypto.randomUUID(),
    startedAt: 1,
    provider: "mirror",
    modelId: "mirror",
    api: "mirror",
    options: {},
    messageCount: 2,
    leafId: null,
    outcome: { stopReason: "stop", usage: zeroUsage() },
    timing: { durationMs: 5 },
    capture: { messages: "all", payload: "all" },
    ...patch,
  };
}

/** A call to record, with the summary `testCallSummary(patch)` and an empty body. */
export function testNewCall(patch: Partial<CallSummary> = {}): NewCall {
  return {
    summary: testCallSummary(patch),
    body: {
      messages: { kept: "all", value: [], bytes: 2 },
      sources: [],
      payload: { kept: "none", bytes: 0, reason: "r" },
    },
  };
}

/** A stored call record of session "s", numbered `seq`. */
export function testCallRecord(seq: number): CallRecord {
  return {
    schema: SCHEMA_VERSION,
    sessionId: "s",
    seq,
    ...testCallSummary({ id: `call-${seq}`, startedAt: seq }),
  };
}
