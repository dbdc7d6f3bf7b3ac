import type { AssistantMessage, JsonObject, Message, ToolResultMessage, Usage } from "@earendil-works/pi-ai";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import type { CallRecord } from "../storage/records.ts";
import type { CallBody } from "./call-body.ts";
import { CallAnalyzer, type CallAnatomy } from "./session-anatomy.ts";

/** Small builders for the anatomy's tests: messages as a request carries them, and usage records. */

export function usage(input: number, output = 10, cacheRead = 0, cacheWrite = 0, cost = 0): Usage {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}

export const NO_USAGE = usage(0, 0);

export function system(text: string, tools: string[] = []): Message {
  return {
    role: "system",
    content: text,
    ...(tools.length > 0
      ? {
          toolsAdded: tools.map((name) => ({
            name,
            description: `The ${name} tool.`,
            parameters: { type: "object", properties: {} },
          })),
        }
      : {}),
    timestamp: 0,
  } as Message;
}

export function user(text: string, timestamp = 1): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

export function assistant(
  text: string,
  options: { thinking?: string; call?: { id: string; name: string; args: JsonObject } } = {},
  timestamp = 2,
  replyUsage: Usage = NO_USAGE,
): AssistantMessage {
  return {
    role: "assistant",
    content: [
      ...(options.thinking ? [{ type: "thinking" as const, thinking: options.thinking }] : []),
      { type: "text" as const, text },
      ...(options.call
        ? [
            {
              type: "toolCall" as const,
              id: options.call.id,
              name: options.call.name,
              arguments: options.call.args,
            },
          ]
        : []),
    ],
    api: "mirror",
    provider: "mirror",
    model: "mirror",
    usage: replyUsage,
    stopReason: options.call ? "toolUse" : "stop",
    timestamp,
  };
}

export function toolResult(id: string, name: string, text: string, timestamp = 3): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: name,
    content: [{ type: "text", text }],
    isError: false,
    timestamp,
  } as ToolResultMessage;
}

/**
 * A synthetic session of three calls: a question answered with a tool call, the tool's result and the
 * answer, then a follow-up. Sizes are chosen so that the hand-computed shares are whole numbers.
 */
export function syntheticSession() {
  const facts = [
    system("S".repeat(400)), // 400 chars
    user("U".repeat(200)), // 200
    assistant("", { call: { id: "c1", name: "calculate", args: {} } }), // "calculate" + "{}" = 11 chars
    toolResult("c1", "calculate", "R".repeat(3_989)), // 3,989
    assistant("A".repeat(400)), // 400
    user("V".repeat(200)), // 200
  ];
  const entries = chainEntries(facts as never[], null);
  const id = (index: number) => entries[index]?.id ?? "";
  const call = (seq: number, count: number, input: number, cacheRead: number, cost: number): CallRecord => ({
    schema: 2,
    sessionId: "s",
    seq,
    id: `call-${seq}`,
    startedAt: 1_000 * (seq + 1),
    provider: "mirror",
    modelId: "mirror",
    api: "mirror",
    options: {},
    messageCount: count,
    leafId: id(count - 1),
    replyEntryId: id(count),
    outcome: { stopReason: "stop", usage: usage(input, 10, cacheRead, 0, cost) },
    timing: { durationMs: 100 },
    capture: { messages: "all", payload: "none" },
  });
  const body = (count: number): CallBody => ({
    kind: "kept",
    messages: facts.slice(0, count) as Message[],
    sources: entries.slice(0, count).map((entry) => entry.id),
  });
  return {
    entries: entries as SessionEntry[],
    id,
    calls: [call(0, 2, 600, 0, 0.01), call(1, 4, 100, 4_500, 0.02), call(2, 6, 1_000, 4_000, 0.03)],
    bodies: [body(2), body(4), body(6)],
  };
}

export function analyze(
  session = syntheticSession(),
  windowOf = (): number | undefined => 10_000,
): CallAnatomy[] {
  const analyzer = new CallAnalyzer({ entries: () => session.entries, windowOf });
  return session.calls.map((call, index) => analyzer.add(call, session.bodies[index] as CallBody));
}
