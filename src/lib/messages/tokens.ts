import type { Message } from "@earendil-works/pi-ai";
import { estimateMessageTokens } from "@earendil-works/pi-ai/utils/estimate";

/**
 * The one token estimate of the page (this module: a message; each message kind: its fact's own size;
 * `model-view/view-tokens.ts`: contexts and a model view's totals, loaded with the views that show them): pi-ai's own (`estimateMessageTokens`, `estimateContextTokens`), so
 * the inspector, the anatomy, the calls and the header count a message the same way pi does. A context is
 * anchored on real usage where it has it: the last reply whose usage applies counts as reported, and only
 * what follows it is estimated. Real tokenizers differ by model, so every figure is called an estimate.
 */
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

type AssistantPart = Extract<Message, { role: "assistant" }>["content"][number];

function hasToolCall(message: Extract<Message, { role: "assistant" }>): boolean {
  return Array.isArray(message.content) && message.content.some((part) => part?.type === "toolCall");
}

export function jsonChars(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "undefined").length;
  } catch {
    return "[unserializable]".length;
  }
}

type TextOrImage = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

function isTextOrImage(part: unknown): part is TextOrImage {
  if (typeof part !== "object" || part === null) return false;
  const { type, text } = part as { type?: unknown; text?: unknown };
  return type === "image" || (type === "text" && typeof text === "string");
}

/** Content as pi-ai's estimator reads it: a string, or a list of text and images. */
export function textAndImages(content: unknown): string | TextOrImage[] {
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

export function assistantParts(content: unknown): AssistantPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isAssistantPart) : [];
}

/**
 * Whether pi-ai's estimator can read `message` as it is. A session imported as pi reads it may hold a
 * message without content, a string where a list belongs, or a reply without usage; pi-ai's estimator
 * would throw on those.
 */
export function isEstimable(message: Message): boolean {
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
    // pi-ai reads a system message's text whatever its shape.
    case "system":
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
export function estimable(message: Message): Message {
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
