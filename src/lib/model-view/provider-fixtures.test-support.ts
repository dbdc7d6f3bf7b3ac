import type { Api, AssistantMessage, Message, Model, Tool, ToolCall } from "@earendil-works/pi-ai";
import { zeroUsage } from "../../shared/usage.ts";

/**
 * A model view that exercises every rule of pi-ai's provider transform, for the provider view's tests:
 * replies from two other providers (thinking, signatures, ids the target must rewrite), a stopped reply, a
 * failed one, an image for a model without image input, a call left without result, and a system message
 * between a call and its result.
 */

export function testModel(
  api: Api,
  provider: string,
  id: string,
  extra: Partial<Model<Api>> = {},
): Model<Api> {
  return {
    id,
    name: id,
    api,
    provider,
    // Nothing listens on the discard port, and the conformance tests stop every request before it is sent.
    baseUrl: "http://127.0.0.1:9/v1",
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    reasoning: false,
    contextWindow: 100_000,
    maxTokens: 4_096,
    ...extra,
  };
}

export const clockTool: Tool = {
  name: "get_time",
  description: "The current time.",
  parameters: { type: "object", properties: {} },
};

export const ID = {
  /** OpenAI Responses ids: `{call_id}|{item_id}`, the item id full of characters other APIs refuse. */
  pipeShort: "call_abc|fc_very+long/id==",
  pipeLong: `call_xyz|fc_${"Ab+/".repeat(60)}`,
  /** Safe characters, but longer than 64 (and than OpenAI's 40). */
  longPlain: `toolu_01${"x".repeat(70)}`,
  dotted: "toolu.with.dots",
  /** Already a Mistral id, and an id Mistral's rule turns into the same one. */
  nine: "abcdef123",
  nineClash: "abc_def_123",
  firstCall: "toolu_first",
  unanswered: "toolu_unanswered",
} as const;

const call = (id: string, thoughtSignature?: string): ToolCall => ({
  type: "toolCall",
  id,
  name: clockTool.name,
  arguments: {},
  ...(thoughtSignature ? { thoughtSignature } : {}),
});

const result = (toolCallId: string, text: string, timestamp: number, image = false): Message => ({
  role: "toolResult",
  toolCallId,
  toolName: clockTool.name,
  content: [
    { type: "text", text },
    ...(image ? [{ type: "image" as const, data: "AAAA", mimeType: "image/png" }] : []),
  ],
  isError: false,
  timestamp,
});

const reply = (
  from: { api: Api; provider: string; model: string },
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"],
  timestamp: number,
): AssistantMessage => ({
  role: "assistant",
  content,
  api: from.api,
  provider: from.provider,
  model: from.model,
  usage: zeroUsage(),
  stopReason,
  timestamp,
});

export const TEXT = {
  foreignThinking: "Let me look at the clock first.",
  aborted: "The time is probab",
  errored: "Half an ans",
} as const;

export const SIGNATURE = {
  thinking: "sig-thinking-9f2",
  text: "sig-text-4c1",
  toolCall: "sig-call-77a",
} as const;

/** Where each message of `richSession` is. */
export const AT = {
  system: 0,
  question: 1,
  copilot: 2,
  copilotResults: [3, 4],
  opus: 5,
  opusResults: [6, 7, 8, 9],
  aborted: 10,
  retry: 11,
  errored: 12,
  image: 13,
  calls: 14,
  midSystem: 15,
  firstResult: 16,
  answer: 17,
  thanks: 18,
} as const;

export function richSession(target: Model<Api>): Message[] {
  const self = { api: target.api, provider: target.provider, model: target.id };
  const copilot = { api: "openai-responses", provider: "github-copilot", model: "gpt-5" } as const;
  const opus = { api: "anthropic-messages", provider: "anthropic", model: "claude-opus-4-1" } as const;
  return [
    { role: "system", content: "You are terse.", toolsAdded: [clockTool], timestamp: 1_000 },
    { role: "user", content: "What time is it?", timestamp: 1_001 },
    reply(
      copilot,
      [
        { type: "thinking", thinking: TEXT.foreignThinking, thinkingSignature: SIGNATURE.thinking },
        { type: "text", text: "Checking the clock.", textSignature: SIGNATURE.text },
        call(ID.pipeShort, SIGNATURE.toolCall),
        call(ID.pipeLong),
      ],
      "toolUse",
      1_002,
    ),
    result(ID.pipeShort, "12:00", 1_003),
    result(ID.pipeLong, "12:00 UTC", 1_004),
    reply(opus, [call(ID.longPlain), call(ID.dotted), call(ID.nine), call(ID.nineClash)], "toolUse", 1_005),
    result(ID.longPlain, "12:01", 1_006),
    result(ID.dotted, "12:02", 1_007),
    result(ID.nine, "12:03", 1_008),
    result(ID.nineClash, "12:04", 1_009),
    reply(self, [{ type: "text", text: TEXT.aborted }], "aborted", 1_010),
    { role: "user", content: "Try again", timestamp: 1_011 },
    { ...reply(self, [{ type: "text", text: TEXT.errored }], "error", 1_012), errorMessage: "overloaded" },
    {
      role: "user",
      content: [
        { type: "text", text: "Look at this" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      timestamp: 1_013,
    },
    reply(
      self,
      [{ type: "thinking", thinking: "" }, call(ID.firstCall), call(ID.unanswered)],
      "toolUse",
      1_014,
    ),
    { role: "system", content: "Answer in one line from now on.", timestamp: 1_015 },
    result(ID.firstCall, "13:00", 1_016, true),
    reply(self, [{ type: "text", text: "It is 13:00." }], "stop", 1_017),
    { role: "user", content: "Thanks", timestamp: 1_018 },
  ];
}

/** A reply of `model`: one that made tool calls stopped to use them, any other stopped on its own. */
export function replyOf(
  model: Model<Api>,
  content: AssistantMessage["content"],
  timestamp: number,
): AssistantMessage {
  return reply(
    { api: model.api, provider: model.provider, model: model.id },
    content,
    content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
    timestamp,
  );
}
