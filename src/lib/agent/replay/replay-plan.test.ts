import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, JsonObject, ToolResultMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { createApprovalRequest, createNotification, createUserMessage } from "../../messages/factories.ts";
import {
  describeChanges,
  readReplayRecord,
  RecordedResults,
  replayCallLimit,
  replayScript,
  toolCallKey,
} from "./replay-plan.ts";

const usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const reply = (calls: { id: string; name: string; args: JsonObject }[] = []): AssistantMessage => ({
  role: "assistant",
  content: [
    { type: "text", text: "ok" },
    ...calls.map((call) => ({
      type: "toolCall" as const,
      id: call.id,
      name: call.name,
      arguments: call.args,
    })),
  ],
  api: "mirror",
  provider: "mirror",
  model: "mirror",
  usage,
  stopReason: calls.length > 0 ? "toolUse" : "stop",
  timestamp: 1,
});
const result = (id: string, name: string, text: string, isError = false): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: name,
  content: [{ type: "text", text }],
  isError,
  timestamp: 2,
});
const system: AgentMessage = { role: "system", content: "Be kind.", timestamp: 0 };
const declaration: AgentMessage = {
  role: "system",
  content: "",
  toolsAdded: [{ name: "x", description: "", parameters: { type: "object" } } as never],
  timestamp: 0,
};

describe("a replay's script", () => {
  const prompt = createUserMessage("hi", 1);
  const note = createNotification("deployed", "info", 3);
  const steer = createUserMessage("also this", 4);
  const facts: AgentMessage[] = [
    system,
    prompt,
    reply([{ id: "a", name: "calc", args: { x: 1 } }]),
    createApprovalRequest({ action: "Run calc", toolCallId: "a", toolName: "calc", toolArgs: { x: 1 } }),
    result("a", "calc", "1"),
    steer,
    reply(),
    note,
    declaration,
    createUserMessage("bye", 5),
    reply(),
  ];

  it("delivers what no call produced, grouped by the calls before it; replies, results and pi's own facts are made again", () => {
    const script = replayScript(facts, 0);
    expect(script.originalCalls).toBe(3);
    expect(script.inputs.map((inputs) => [inputs.callsBefore, inputs.messages.map((m) => m.role)])).toEqual([
      [0, ["user"]],
      [1, ["user"]],
      [2, ["notification", "user"]],
    ]);
  });

  it("from a reply with tool calls, delivers their recorded results as facts: no call of the replay made them", () => {
    const script = replayScript(facts, 2);
    expect(script.inputs[0]).toEqual({ callsBefore: 0, messages: [facts[4], steer] });
  });

  it("is empty from the last fact, and the call limit grows with the recorded calls up to its ceiling", () => {
    expect(replayScript(facts, facts.length - 1)).toEqual({ inputs: [], originalCalls: 0 });
    expect(replayCallLimit(6)).toBe(22);
    expect(replayCallLimit(1000, 200)).toBe(200);
  });
});

describe("recorded tool results", () => {
  it("answer a call with the same name and arguments (in any key order), in recorded order, then the last again", () => {
    const facts: AgentMessage[] = [
      reply([{ id: "a", name: "lookup", args: { id: 7, deep: { b: 1, a: 2 } } }]),
      result("a", "lookup", "first"),
      reply([{ id: "b", name: "lookup", args: { id: 7, deep: { b: 1, a: 2 } } }]),
      result("b", "lookup", "second", true),
    ];
    const results = new RecordedResults(facts);
    expect(results.size).toBe(2);
    expect(results.take("lookup", { id: 8 })).toBeUndefined();
    expect(results.take("other", { id: 7, deep: { a: 2, b: 1 } })).toBeUndefined();
    const same = { deep: { a: 2, b: 1 }, id: 7 };
    expect(results.take("lookup", same)?.content).toEqual([{ type: "text", text: "first" }]);
    expect(results.take("lookup", same)).toMatchObject({ isError: true });
    expect(results.take("lookup", same)).toMatchObject({ isError: true });
    expect(toolCallKey("f", { b: [1, { d: 1, c: 2 }], a: null })).toBe('f {"a":null,"b":[1,{"c":2,"d":1}]}');
  });

  it("keep a huge or hostile result exactly as recorded (it is the model's input, shown sanitized)", () => {
    const huge = "<img src=x onerror=alert(1)>".repeat(100_000);
    const results = new RecordedResults([
      reply([{ id: "a", name: "fetch", args: {} }]),
      result("a", "fetch", huge),
    ]);
    expect(results.take("fetch", {})?.content).toEqual([{ type: "text", text: huge }]);
  });
});

describe("a replay's record, read back", () => {
  it("keeps what it knows and drops what it does not", () => {
    expect(readReplayRecord(null)).toBeUndefined();
    expect(readReplayRecord({ fromEntryId: 1, originalLeafId: "b" })).toBeUndefined();
    const record = readReplayRecord({
      fromEntryId: "a",
      originalLeafId: "b",
      startedAt: 5,
      changes: {
        policies: { notification: "userText", progress: "loud", __proto__: "x" },
        model: { provider: "mirror", id: "mirror-thinking" },
        thinkingLevel: "sideways",
        systemPrompt: 42,
        tools: ["calc", 3],
        omit: "all",
      },
    });
    expect(record).toEqual({
      fromEntryId: "a",
      originalLeafId: "b",
      startedAt: 5,
      changes: {
        policies: { notification: "userText" },
        model: { provider: "mirror", id: "mirror-thinking" },
        tools: ["calc"],
      },
    });
    expect(describeChanges(record?.changes ?? {})).toBe(
      "notification as user text, model mirror/mirror-thinking, tools: calc",
    );
    expect(describeChanges({})).toBe("unchanged");
  });
});
