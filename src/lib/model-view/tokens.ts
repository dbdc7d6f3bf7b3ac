import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTextAndImageContentTokens,
  estimateTextTokens,
  type ContextUsageEstimate,
} from "@earendil-works/pi-ai/utils/estimate";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";

/**
 * The one token estimate of the page: pi-ai's own (`estimateMessageTokens`, `estimateContextTokens`), so
 * the inspector, the anatomy, the calls and the header count a message the same way pi does. A context is
 * anchored on real usage where it has it: the last reply whose usage applies counts as reported, and only
 * what follows it is estimated. Real tokenizers differ by model, so every figure is called an estimate.
 */
export const TOKEN_ESTIMATOR_LABEL = "≈ pi-ai's estimate";
export const TOKEN_ESTIMATOR_DESCRIPTION =
  "pi-ai's estimate (estimateMessageTokens): characters ÷ 3.5, an image as 4,800 characters. The model view's total is the next call's context as pi-ai estimates it (estimateContextTokens): the last reply's reported usage, plus an estimate of what follows it.";

export type { ContextUsageEstimate };

/**
 * Messages whose estimate took serializing (tool arguments, tool definitions). Summing text lengths costs
 * less than remembering the sum: a session just opened estimates every one of its facts once.
 */
const serialized = new WeakMap<object, number>();

/** pi-ai's estimate of one message the model reads. */
export function messageTokens(message: Message): number {
  const hit = serialized.get(message);
  if (hit !== undefined) return hit;
  const tokens = estimateMessageTokens(estimable(message));
  if (message.role === "system" || (message.role === "assistant" && hasToolCall(message)))
    serialized.set(message, tokens);
  return tokens;
}

/** pi-ai's estimate of a context: anchored on the last reply whose usage applies, estimated after it. */
export function contextTokens(messages: readonly Message[]): ContextUsageEstimate {
  return estimateContextTokens(messages.every(isEstimable) ? messages : messages.map(estimable));
}

/**
 * A fact's own size: pi-ai's estimate for the messages the model reads, and for the custom facts pi-ai's
 * text estimate of what they hold (a fact the policy hides still has a size; what the model reads of a
 * converted one is counted by the model view). A role this version does not know is never sent: nothing.
 */
export function factTokens(fact: AgentMessage): number {
  switch (fact.role) {
    case "system":
    case "user":
    case "assistant":
    case "toolResult":
      return messageTokens(fact);
    case "custom":
      return estimateTextAndImageContentTokens(textAndImages(fact.content));
    case "bashExecution":
      return estimateTextTokens(fact.command + fact.output);
    case "branchSummary":
    case "compactionSummary":
      return estimateTextTokens(fact.summary);
    case "notification":
    case "progress":
      return estimateTextTokens(fact.text);
    case "approval_request":
      return estimateTextTokens(fact.action + (fact.subject ?? "") + (fact.reason ?? ""));
    default:
      return 0;
  }
}

/** What pi-ai's estimator counts of a message, part by part. */
export type TokenPart = "system" | "tools" | "text" | "image" | "thinking" | "toolCall";

/** Told the parts of a message (an object, not a callback, so that a long walk allocates nothing per message). */
export interface PartVisitor {
  part(kind: TokenPart, chars: number, blocks: number): void;
}

/**
 * The characters pi-ai's estimator counts for an image, and per token. Used only to split a message's
 * estimate between its parts (the estimate itself is pi-ai's); `tokens.test.ts` fails if pi-ai changes
 * them.
 */
export const ESTIMATED_IMAGE_CHARS = 4_800;
export const CHARS_PER_TOKEN = 3.5;

/**
 * Tells `visitor` each part of `message` with the characters pi-ai's estimator counts for it (tool
 * definitions as one part of as many blocks as tools), and returns
 * pi-ai's estimate of the message, which those characters give: the anatomy splits a request's total by
 * them without measuring anything a second time.
 */
export function measureParts(message: Message, visitor: PartVisitor): number {
  switch (message.role) {
    case "system": {
      const text = getSystemMessageText(message).length;
      const added = toolsChars(message.toolsAdded);
      const removed = toolsChars(message.toolsRemoved);
      visitor.part("system", text, 1);
      const tools = (message.toolsAdded?.length ?? 0) + (message.toolsRemoved?.length ?? 0);
      if (tools > 0) visitor.part("tools", added + removed, tools);
      return (
        Math.ceil(text / CHARS_PER_TOKEN) +
        Math.ceil(added / CHARS_PER_TOKEN) +
        Math.ceil(removed / CHARS_PER_TOKEN)
      );
    }
    case "user":
    case "toolResult": {
      const content = message.content as Message["content"] | undefined;
      let chars = 0;
      if (typeof content === "string") {
        visitor.part("text", content.length, 1);
        chars = content.length;
      } else if (Array.isArray(content))
        for (const part of content) {
          if (part?.type === "image") {
            visitor.part("image", ESTIMATED_IMAGE_CHARS, 1);
            chars += ESTIMATED_IMAGE_CHARS;
          } else if (part?.type === "text") {
            const length = part.text?.length ?? 0;
            visitor.part("text", length, 1);
            chars += length;
          }
        }
      return Math.ceil(chars / CHARS_PER_TOKEN);
    }
    case "assistant": {
      let chars = 0;
      const content = message.content as unknown;
      for (const part of assistantParts(content)) {
        if (part.type === "text") {
          visitor.part("text", part.text.length, 1);
          chars += part.text.length;
        } else if (part.type === "thinking") {
          visitor.part("thinking", part.thinking.length, 1);
          chars += part.thinking.length;
        } else {
          const size = part.name.length + jsonChars(part.arguments);
          visitor.part("toolCall", size, 1);
          chars += size;
        }
      }
      return Math.ceil(chars / CHARS_PER_TOKEN);
    }
    default:
      return 0;
  }
}

type AssistantPart = Extract<Message, { role: "assistant" }>["content"][number];

function hasToolCall(message: Extract<Message, { role: "assistant" }>): boolean {
  return Array.isArray(message.content) && message.content.some((part) => part?.type === "toolCall");
}

function jsonChars(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "undefined").length;
  } catch {
    return "[unserializable]".length;
  }
}

function toolsChars(tools: readonly unknown[] | undefined): number {
  return tools && tools.length > 0 ? jsonChars(tools) : 0;
}

type TextOrImage = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

function isTextOrImage(part: unknown): part is TextOrImage {
  if (typeof part !== "object" || part === null) return false;
  const { type, text } = part as { type?: unknown; text?: unknown };
  return type === "image" || (type === "text" && typeof text === "string");
}

/** Content as pi-ai's estimator reads it: a string, or a list of text and images. */
function textAndImages(content: unknown): string | TextOrImage[] {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.filter(isTextOrImage) : [];
}

function isAssistantPart(part: unknown): part is AssistantPart {
  if (typeof part !== "object" || part === null) return false;
  const block = part as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown };
  return (
    (block.type === "text" && typeof block.text === "string") ||
    (block.type === "thinking" && typeof block.thinking === "string") ||
    (block.type === "toolCall" && typeof block.name === "string")
  );
}

function assistantParts(content: unknown): AssistantPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isAssistantPart) : [];
}

/**
 * Whether pi-ai's estimator can read `message` as it is. A session imported as pi reads it may hold a
 * message without content, a string where a list belongs, or a reply without usage; pi-ai's estimator
 * would throw on those.
 */
function isEstimable(message: Message): boolean {
  const content = message.content as unknown;
  switch (message.role) {
    case "user":
    case "toolResult":
      return typeof content === "string" || (Array.isArray(content) && content.every(isTextOrImage));
    case "assistant":
      return (
        Array.isArray(content) &&
        content.every(isAssistantPart) &&
        typeof message.usage === "object" &&
        message.usage !== null
      );
    default:
      return true;
  }
}

/** A reply without a usage record reported none. */
const NO_USAGE = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** `message` as pi-ai's estimator can read it: as it is when it can, else only the parts it would count. */
function estimable(message: Message): Message {
  if (isEstimable(message)) return message;
  const content = message.content as unknown;
  return message.role === "assistant"
    ? {
        ...message,
        content: assistantParts(content),
        usage: typeof message.usage === "object" && message.usage !== null ? message.usage : NO_USAGE,
      }
    : ({ ...message, content: textAndImages(content) } as Message);
}
