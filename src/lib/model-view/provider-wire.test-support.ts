import type { Message } from "@earendil-works/pi-ai";
import { getSystemMessageText, renderSystemMessageUpdate } from "@earendil-works/pi-ai/utils/text";
import { expect } from "vitest";

/**
 * Readers of the request bodies pi-ai's adapters build, for the conformance tests
 * (provider-conformance.test.ts): each reads one wire format back into one turn per message of the list
 * the adapter converted, undoing what the adapter does after the transform (one user turn for consecutive
 * tool results, the leading prompt in its own field, Mistral's "[tool error]" prefix, the Responses API
 * pairing results by call id only).
 */

export interface Turn {
  role: "system" | "user" | "assistant" | "toolResult";
  text: string;
  ids: string[];
  images: number;
  thinking: number;
}

const turn = (role: Turn["role"], text: string, ids: string[] = [], images = 0, thinking = 0): Turn => ({
  role,
  text,
  ids,
  images,
  thinking,
});

type Content = Message["content"];
const textsOf = (content: Content): string[] =>
  typeof content === "string"
    ? [content]
    : content.flatMap((block) => (block.type === "text" ? [block.text] : []));
const countOf = (content: Content, type: string): number =>
  typeof content === "string" ? 0 : content.filter((block) => block.type === type).length;

/** The turns a provider view should come out as, one per message. */
export function turnsOfView(messages: readonly Message[]): Turn[] {
  return messages.map((message, index) => {
    switch (message.role) {
      case "system":
        return turn(
          "system",
          index === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message),
        );
      case "user":
        return turn("user", textsOf(message.content).join("\n"), [], countOf(message.content, "image"));
      case "assistant":
        return turn(
          "assistant",
          textsOf(message.content).join(""),
          message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : [])),
          0,
          countOf(message.content, "thinking"),
        );
      case "toolResult":
        return turn("toolResult", textsOf(message.content).join("\n"), [message.toolCallId]);
    }
  });
}

/** A loose view of every wire format's parts: each reader picks the fields its format has. */
interface Part {
  type?: string;
  role?: string;
  text?: string;
  id?: string;
  content?: string | Part[] | null;
  [field: string]: unknown;
}

const partsOf = (value: unknown): Part[] => (Array.isArray(value) ? (value as Part[]) : []);
const textOfParts = (parts: Part[], separator: string): string =>
  parts
    .flatMap((part) => (typeof part.text === "string" && part.thought !== true ? [part.text] : []))
    .join(separator);
const stringOrParts = (content: Part["content"], separator: string): string =>
  typeof content === "string" ? content : textOfParts(partsOf(content), separator);

export function readAnthropic(body: unknown): Turn[] {
  const { system, messages } = body as { system?: Part[]; messages: Part[] };
  const turns: Turn[] = system ? [turn("system", textOfParts(system, ""))] : [];
  for (const message of messages) {
    const parts = partsOf(message.content);
    if (message.role === "system") turns.push(turn("system", textOfParts(parts, "")));
    else if (message.role === "assistant") {
      turns.push(
        turn(
          "assistant",
          textOfParts(
            parts.filter((part) => part.type === "text"),
            "",
          ),
          parts.flatMap((part) => (part.type === "tool_use" ? [String(part.id)] : [])),
          0,
          parts.filter((part) => part.type === "thinking" || part.type === "redacted_thinking").length,
        ),
      );
    } else if (parts.some((part) => part.type === "tool_result")) {
      for (const part of parts) {
        expect(part.type).toBe("tool_result");
        turns.push(turn("toolResult", stringOrParts(part.content, "\n"), [String(part.tool_use_id)]));
      }
    } else {
      turns.push(
        turn(
          "user",
          stringOrParts(message.content ?? "", "\n"),
          [],
          parts.filter((p) => p.type === "image").length,
        ),
      );
    }
  }
  return turns;
}

export function readOpenAICompletions(body: unknown): Turn[] {
  const { messages } = body as { messages: Part[] };
  return messages.map((message) => {
    switch (message.role) {
      case "system":
      case "developer":
        return turn("system", stringOrParts(message.content ?? "", ""));
      case "user":
        return turn(
          "user",
          stringOrParts(message.content ?? "", "\n"),
          [],
          partsOf(message.content).filter((part) => part.type === "image_url").length,
        );
      case "assistant":
        return turn(
          "assistant",
          stringOrParts(message.content ?? "", ""),
          partsOf(message.tool_calls).map((call) => String(call.id)),
          0,
          ["reasoning_content", "reasoning", "reasoning_text", "reasoning_details"].filter(
            (key) => key in message,
          ).length,
        );
      case "tool":
        return turn("toolResult", stringOrParts(message.content ?? "", "\n"), [String(message.tool_call_id)]);
      case undefined:
      default:
        throw new Error(`unexpected role ${String(message.role)}`);
    }
  });
}

export function readGoogle(body: unknown): Turn[] {
  const { contents, config } = body as { contents: Part[]; config: { systemInstruction?: string } };
  const turns: Turn[] =
    config.systemInstruction === undefined ? [] : [turn("system", config.systemInstruction)];
  for (const content of contents) {
    const parts = partsOf(content.parts);
    if (content.role === "model") {
      turns.push(
        turn(
          "assistant",
          textOfParts(parts, ""),
          parts.flatMap((part) => (part.functionCall ? [String((part.functionCall as Part).id ?? "")] : [])),
          0,
          parts.filter((part) => part.thought === true).length,
        ),
      );
    } else if (parts.some((part) => part.functionResponse)) {
      for (const part of parts) {
        const response = part.functionResponse as {
          id?: string;
          response: { output?: string; error?: string };
        };
        turns.push(
          turn("toolResult", response.response.output ?? response.response.error ?? "", [response.id ?? ""]),
        );
      }
    } else {
      turns.push(turn("user", textOfParts(parts, "\n"), [], parts.filter((part) => part.inlineData).length));
    }
  }
  return turns;
}

/** One assistant message is sent as several items (reasoning, a message per text block, a call per tool call). */
export function readResponses(body: unknown): Turn[] {
  const { input } = body as { input: Part[] };
  const turns: Turn[] = [];
  let assistant: Turn | undefined;
  for (const item of input) {
    const isAssistantItem =
      item.type === "function_call" ||
      item.type === "reasoning" ||
      (item.type === "message" && item.role === "assistant");
    if (!isAssistantItem) assistant = undefined;
    else if (!assistant) {
      assistant = turn("assistant", "");
      turns.push(assistant);
    }
    if (assistant && item.type === "message") assistant.text += textOfParts(partsOf(item.content), "");
    else if (assistant && item.type === "function_call") {
      assistant.ids.push(item.id === undefined ? String(item.call_id) : `${String(item.call_id)}|${item.id}`);
    } else if (assistant && item.type === "reasoning") assistant.thinking++;
    else if (item.type === "function_call_output") {
      turns.push(turn("toolResult", String(item.output), [String(item.call_id)]));
    } else if (item.role === "system" || item.role === "developer") {
      turns.push(turn("system", stringOrParts(item.content ?? "", "")));
    } else if (item.role === "user") {
      const parts = partsOf(item.content);
      turns.push(
        turn("user", textOfParts(parts, "\n"), [], parts.filter((p) => p.type === "input_image").length),
      );
    } else throw new Error(`unexpected item ${JSON.stringify(item)}`);
  }
  return turns;
}

/** The Responses API pairs a result with its call by call id alone: the `|item` part is never sent with it. */
export const responsesTurnsOfView = (messages: readonly Message[]): Turn[] =>
  turnsOfView(messages).map((expected) =>
    expected.role === "toolResult"
      ? { ...expected, ids: expected.ids.map((id) => id.split("|")[0] ?? id) }
      : expected,
  );

const MISTRAL_ERROR_PREFIX = "[tool error] ";

export function readMistral(body: unknown): Turn[] {
  const { messages } = body as { messages: Part[] };
  return messages.map((message) => {
    const parts = partsOf(message.content);
    switch (message.role) {
      case "system":
        return turn("system", stringOrParts(message.content ?? "", ""));
      case "user":
        return turn(
          "user",
          stringOrParts(message.content ?? "", "\n"),
          [],
          parts.filter((p) => p.type === "image_url").length,
        );
      case "assistant":
        return turn(
          "assistant",
          textOfParts(
            parts.filter((part) => part.type === "text"),
            "",
          ),
          partsOf(message.toolCalls).map((call) => String(call.id)),
          0,
          parts.filter((part) => part.type === "thinking").length,
        );
      case "tool": {
        const text = textOfParts(parts, "\n");
        return turn(
          "toolResult",
          text.startsWith(MISTRAL_ERROR_PREFIX) ? text.slice(MISTRAL_ERROR_PREFIX.length) : text,
          [String(message.toolCallId)],
        );
      }
      case undefined:
      default:
        throw new Error(`unexpected role ${String(message.role)}`);
    }
  });
}

export function readBedrock(body: unknown): Turn[] {
  const { system, messages } = body as { system?: Part[]; messages: Part[] };
  const turns: Turn[] = system ? [turn("system", textOfParts(system, ""))] : [];
  for (const message of messages) {
    const parts = partsOf(message.content);
    if (message.role === "assistant") {
      turns.push(
        turn(
          "assistant",
          textOfParts(parts, ""),
          parts.flatMap((part) => (part.toolUse ? [String((part.toolUse as Part).toolUseId)] : [])),
          0,
          parts.filter((part) => part.reasoningContent).length,
        ),
      );
    } else if (parts.some((part) => part.toolResult)) {
      for (const part of parts.filter((candidate) => !candidate.cachePoint)) {
        const result = part.toolResult as { toolUseId: string; content: Part[] };
        turns.push(turn("toolResult", textOfParts(result.content, "\n"), [result.toolUseId]));
      }
    } else {
      turns.push(turn("user", textOfParts(parts, "\n"), [], parts.filter((part) => part.image).length));
    }
  }
  return turns;
}
