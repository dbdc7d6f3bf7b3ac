import { describe, expect, it } from "vitest";
import type { CallBodyRecord } from "../storage/records.ts";
import { user } from "./anatomy.test-support.ts";
import { readBody } from "./call-body.ts";

const stored = (messages: CallBodyRecord["messages"]): CallBodyRecord => ({
  schema: 2,
  sessionId: "s",
  seq: 0,
  messages,
  sources: ["fact-1"],
  payload: { kept: "none", bytes: 0, reason: "x" },
});

describe("readBody", () => {
  it("gives the messages and their sources of a body kept whole", () => {
    const messages = [user("hello")];
    expect(readBody(stored({ kept: "all", value: messages, bytes: 40 }))).toEqual({
      kind: "kept",
      messages,
      sources: ["fact-1"],
    });
  });

  it("says why the messages are not known: no body, cut, or not kept", () => {
    expect(readBody(undefined)).toEqual({ kind: "unknown", reason: "its body was not found" });
    expect(readBody(undefined, "the call is still running")).toEqual({
      kind: "unknown",
      reason: "the call is still running",
    });
    expect(readBody(stored({ kept: "truncated", text: "[{", bytes: 12_000 }))).toEqual({
      kind: "unknown",
      reason: "its messages were cut at 2 bytes of 12,000",
    });
    expect(readBody(stored({ kept: "none", bytes: 0, reason: "capture is off" }))).toEqual({
      kind: "unknown",
      reason: "its messages were not kept: capture is off",
    });
  });
});
