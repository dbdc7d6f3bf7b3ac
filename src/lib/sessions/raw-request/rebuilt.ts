import type {
  AssistantMessage,
  ImageContent,
  JsonObject,
  Message,
  TextContent,
  ThinkingContent,
  Tool,
  ToolCall,
  ToolResultMessage,
} from "@earendil-works/pi-ai";
import { isObject } from "../../../shared/is-object.ts";
import { zeroUsage } from "../../../shared/usage.ts";

/**
 * What a provider request body is read back into: pi-ai's own types (the prompt, the messages, the tools
 * as pi-ai `Tool`s), the request's settings, and every part of the body that has no place in them, listed
 * in words for the person rather than guessed at.
 */

/** The four request shapes a pasted body is read as, named by the pi-ai API that builds each. */
export const REQUEST_SHAPES = [
  "openai-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
] as const;

export type RequestShape = (typeof REQUEST_SHAPES)[number];

export const SHAPE_LABELS: Record<RequestShape, string> = {
  "openai-completions": "OpenAI chat completions",
  "openai-responses": "OpenAI responses",
  "anthropic-messages": "Anthropic messages",
  "google-generative-ai": "Google generateContent",
};

export interface RebuiltContext {
  systemPrompt?: string;
  /** The conversation in pi-ai's types; a system message mid-conversation stays where it was. */
  messages: Message[];
  tools: Tool[];
}

export interface RebuiltRequest {
  shape: RequestShape;
  /** The body's model name, when it has one. */
  model: string | undefined;
  context: RebuiltContext;
  /** Settings the body gives besides its messages (temperature, max tokens, …): kept in the payload. */
  settings: Record<string, unknown>;
  /** Parts of the body that have no place in pi-ai's types, each saying where it is and what it is. */
  unmapped: string[];
}

/** What every reader shares: the list of what it could not map, and pi-ai message builders. */
export class Rebuilder {
  readonly unmapped: string[] = [];
  readonly #api: RequestShape;
  readonly #model: string;
  /** Tool names by call id, so a result names its tool as pi-ai's result messages do. */
  readonly #toolNames = new Map<string, string>();
  #generatedIds = 0;

  constructor(api: RequestShape, model: string | undefined) {
    this.#api = api;
    this.#model = model ?? "unknown";
  }

  skip(where: string, what: string): void {
    this.unmapped.push(`${where}: ${what}`);
  }

  assistant(content: AssistantMessage["content"]): AssistantMessage {
    return {
      role: "assistant",
      content,
      api: this.#api,
      provider: "imported",
      model: this.#model,
      usage: zeroUsage(),
      stopReason: content.some((part) => part.type === "toolCall") ? "toolUse" : "stop",
      timestamp: 0,
    };
  }

  user(content: (TextContent | ImageContent)[] | string): Message {
    return { role: "user", content, timestamp: 0 };
  }

  toolCall(id: string | undefined, name: string, args: unknown, where: string): ToolCall {
    const callId = id ?? `${name}_${++this.#generatedIds}`;
    if (id === undefined)
      this.skip(where, `the call to ${name} has no id in this shape; it is given "${callId}" here`);
    this.#toolNames.set(callId, name);
    let parsed = args;
    if (typeof args === "string") {
      try {
        parsed = args.trim() === "" ? {} : (JSON.parse(args) as unknown);
      } catch {
        return { type: "toolCall", id: callId, name, arguments: {}, argumentsError: `not JSON: ${args}` };
      }
    }
    if (!isObject(parsed)) {
      this.skip(where, `the arguments of ${name} are not a JSON object; they are left out`);
      return { type: "toolCall", id: callId, name, arguments: {} };
    }
    return { type: "toolCall", id: callId, name, arguments: parsed as JsonObject };
  }

  toolResult(
    callId: string,
    content: (TextContent | ImageContent)[],
    isError: boolean,
    name?: string,
  ): ToolResultMessage {
    return {
      role: "toolResult",
      toolCallId: callId,
      toolName: name ?? this.#toolNames.get(callId) ?? "unknown",
      content,
      isError,
      timestamp: 0,
    };
  }
}

export const text = (value: string): TextContent => ({ type: "text", text: value });

export const thinking = (value: string, signature?: string, redacted?: boolean): ThinkingContent => ({
  type: "thinking",
  thinking: value,
  ...(signature ? { thinkingSignature: signature } : {}),
  ...(redacted ? { redacted: true } : {}),
});

/** An image from a `data:` URL; undefined for anything else (a URL the page would have to fetch). */
export function imageOfDataUrl(url: string): ImageContent | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match?.[1] && match[2] !== undefined
    ? { type: "image", mimeType: match[1], data: match[2] }
    : undefined;
}

export function tool(name: unknown, description: unknown, parameters: unknown): Tool | undefined {
  if (typeof name !== "string" || name === "") return undefined;
  return {
    name,
    description: typeof description === "string" ? description : "",
    parameters: isObject(parameters) ? parameters : { type: "object", properties: {} },
  };
}

/** A short description of a value that could not be mapped: its type, or its `type` field. */
export function kindOf(value: unknown): string {
  if (isObject(value) && typeof value.type === "string") return `a "${value.type}" part`;
  if (Array.isArray(value)) return "a list";
  return value === null ? "null" : `a ${typeof value}`;
}
