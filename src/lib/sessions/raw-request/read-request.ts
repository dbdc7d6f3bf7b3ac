import type { Message } from "@earendil-works/pi-ai";
import { normalizeContext } from "@earendil-works/pi-ai/utils/transcript";
import { formatBytes } from "../../../shared/bytes.ts";
import { isObject } from "../../../shared/is-object.ts";
import { positiveInt } from "../../../shared/positive-int.ts";
import { nestsDeeperThan, tooDeepMessage } from "../../messages/nesting.ts";
import { readAnthropic, readGoogle } from "./read-anthropic-google.ts";
import { readChatCompletions, readResponses } from "./read-openai.ts";
import {
  Rebuilder,
  REQUEST_SHAPES,
  SHAPE_LABELS,
  type RebuiltRequest,
  type RequestShape,
} from "./rebuilt.ts";

/**
 * A raw provider request body (pasted, or from a file) read as one call: which of the four shapes it is
 * (or which it could be, for the person to choose), and its messages and tools in pi-ai's types.
 */

/** Largest request body read (`VITE_RAW_REQUEST_MAX_BYTES`): it is parsed whole and kept as the payload. */
export const MAX_RAW_REQUEST_BYTES =
  positiveInt(import.meta.env?.VITE_RAW_REQUEST_MAX_BYTES) ?? 8 * 1024 * 1024;

export type RawRequestRead =
  { ok: true; body: Record<string, unknown>; shapes: RequestShape[] } | { ok: false; problem: string };

/** Parse and check a pasted body, and tell which shapes it could be (most likely first). */
export function readRawRequest(text: string, maxBytes = MAX_RAW_REQUEST_BYTES): RawRequestRead {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > maxBytes)
    return {
      ok: false,
      problem: `The request body is ${formatBytes(bytes)}; at most ${formatBytes(maxBytes)} is read (VITE_RAW_REQUEST_MAX_BYTES).`,
    };
  if (text.trim() === "") return { ok: false, problem: "Paste a request body (JSON) or choose a file." };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `The request body is not JSON: ${(error as Error).message}.` };
  }
  if (!isObject(body))
    return {
      ok: false,
      problem: `The request body is ${Array.isArray(body) ? "a list" : `a ${body === null ? "null" : typeof body}`}; a request body is a JSON object.`,
    };
  if (nestsDeeperThan(body)) return { ok: false, problem: `The request body nests ${tooDeepMessage()}.` };
  const shapes = detectShapes(body);
  if (shapes.length === 0)
    return {
      ok: false,
      problem: `This is not a request body of a shape the playground reads: it has none of "messages" (OpenAI chat completions, Anthropic messages), "input" (OpenAI responses) or "contents" (Google generateContent). Its fields: ${Object.keys(body).slice(0, 12).join(", ") || "none"}.`,
    };
  return { ok: true, body, shapes };
}

function countWhere(list: unknown, test: (item: Record<string, unknown>) => boolean): number {
  return Array.isArray(list) ? list.filter((item) => isObject(item) && test(item)).length : 0;
}

function blocks(messages: unknown): Record<string, unknown>[] {
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: unknown) =>
    isObject(message) && Array.isArray(message.content) ? message.content.filter(isObject) : [],
  );
}

/** The shapes a body could be, the most likely first; more than one when it is ambiguous. */
export function detectShapes(body: Record<string, unknown>): RequestShape[] {
  if (Array.isArray(body.contents)) return ["google-generative-ai"];
  if ((typeof body.input === "string" || Array.isArray(body.input)) && !Array.isArray(body.messages))
    return ["openai-responses"];
  if (!Array.isArray(body.messages)) return [];
  const messages = body.messages;
  const anthropicTypes = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking", "document"]);
  const anthropic =
    (body.system !== undefined ? 1 : 0) +
    blocks(messages).filter(
      (block) => anthropicTypes.has(String(block.type)) || (block.type === "image" && isObject(block.source)),
    ).length +
    countWhere(body.tools, (tool) => tool.input_schema !== undefined) +
    (body.anthropic_version !== undefined || body.thinking !== undefined ? 1 : 0);
  const openai =
    countWhere(
      messages,
      (message) =>
        ["system", "developer", "tool"].includes(String(message.role)) || message.tool_calls !== undefined,
    ) +
    blocks(messages).filter((block) => block.type === "image_url").length +
    countWhere(body.tools, (tool) => tool.type === "function" && isObject(tool.function)) +
    ["max_completion_tokens", "stream_options", "response_format", "n", "logprobs"].filter(
      (key) => key in body,
    ).length;
  if (anthropic > 0 && openai === 0) return ["anthropic-messages"];
  if (openai > 0 && anthropic === 0) return ["openai-completions"];
  return openai >= anthropic
    ? ["openai-completions", "anthropic-messages"]
    : ["anthropic-messages", "openai-completions"];
}

/** Request settings each shape has besides its messages: kept in the payload, not part of the model view. */
const MAPPED: Record<RequestShape, readonly string[]> = {
  "openai-completions": ["messages", "tools"],
  "openai-responses": ["input", "instructions", "tools"],
  "anthropic-messages": ["messages", "system", "tools"],
  "google-generative-ai": ["contents", "systemInstruction", "tools", "config"],
};
const SETTINGS = new Set([
  "model",
  "stream",
  "stream_options",
  "temperature",
  "top_p",
  "top_k",
  "max_tokens",
  "max_completion_tokens",
  "max_output_tokens",
  "store",
  "reasoning",
  "reasoning_effort",
  "tool_choice",
  "parallel_tool_calls",
  "metadata",
  "thinking",
  "stop",
  "stop_sequences",
  "seed",
  "generationConfig",
  "prompt_cache_key",
  "include",
  "text",
  "user",
  "n",
  "presence_penalty",
  "frequency_penalty",
  "service_tier",
  "response_format",
  "safetySettings",
  "toolConfig",
  "cachedContent",
  "anthropic_version",
  "previous_response_id",
  "truncation",
  "logprobs",
]);

/** Read a body as the given shape into pi-ai's types, with what could not be mapped. */
export function rebuildRequest(body: Record<string, unknown>, shape: RequestShape): RebuiltRequest {
  const model = typeof body.model === "string" ? body.model : undefined;
  const rebuild = new Rebuilder(shape, model);
  const context =
    shape === "openai-completions"
      ? readChatCompletions(body, rebuild)
      : shape === "openai-responses"
        ? readResponses(body, rebuild)
        : shape === "anthropic-messages"
          ? readAnthropic(body, rebuild)
          : readGoogle(body, rebuild);
  const settings: Record<string, unknown> = {};
  const config = shape === "google-generative-ai" && isObject(body.config) ? body.config : {};
  for (const [key, value] of [...Object.entries(body), ...Object.entries(config)]) {
    if (MAPPED[shape].includes(key) || key === "abortSignal") continue;
    if (SETTINGS.has(key) || key in config) settings[key] = value;
    else
      rebuild.skip(
        key,
        "a field this shape's reader does not know; kept in the payload, not in the model view",
      );
  }
  return { shape, model, context, settings, unmapped: rebuild.unmapped };
}

/** The model view pi would send for a rebuilt request: its prompt and tools as the leading system message. */
export function modelViewOf(request: RebuiltRequest): Message[] {
  const { systemPrompt, messages, tools } = request.context;
  return normalizeContext({
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    messages,
    ...(tools.length > 0 ? { tools } : {}),
  }).messages;
}

/** The API names other tools give these shapes (an LHAR file's `api_format`). */
function shapeOfApi(api: string): RequestShape | undefined {
  if ((REQUEST_SHAPES as readonly string[]).includes(api)) return api as RequestShape;
  const lower = api.toLowerCase();
  if (lower.includes("anthropic")) return "anthropic-messages";
  if (lower.includes("gemini") || lower.includes("google")) return "google-generative-ai";
  if (lower.includes("responses") || lower === "chatgpt" || lower.includes("codex"))
    return "openai-responses";
  if (lower.includes("openai")) return "openai-completions";
  return undefined;
}

/** A recorded call's model view rebuilt from its payload, when the payload is one of the four shapes. */
export function modelViewOfPayload(
  body: Record<string, unknown>,
  api: string,
): { ok: true; messages: Message[]; unmapped: string[] } | { ok: false; reason: string } {
  const shape = shapeOfApi(api) ?? detectShapes(body)[0];
  if (!shape)
    return {
      ok: false,
      reason: `its shape (${api}) is none of ${REQUEST_SHAPES.map((known) => SHAPE_LABELS[known]).join(", ")}`,
    };
  try {
    const request = rebuildRequest(body, shape);
    return { ok: true, messages: modelViewOf(request), unmapped: request.unmapped };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
