import type { AssistantMessage, ImageContent, Message, TextContent, Tool } from "@earendil-works/pi-ai";
import { isObject } from "../../../shared/is-object.ts";
import { imageOfDataUrl, kindOf, Rebuilder, text, thinking, tool, type RebuiltContext } from "./rebuilt.ts";

/**
 * OpenAI's two request shapes read into pi-ai's types: chat completions (`messages` with system, user,
 * assistant and tool roles) and responses (`instructions` and `input` items). Leading system or developer
 * messages are the prompt; one later in the conversation stays there as a pi-ai system message.
 */

type Parts = (TextContent | ImageContent)[];

function userParts(content: unknown, where: string, rebuild: Rebuilder): Parts | string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) {
    rebuild.skip(where, `content that is ${kindOf(content)}, not text or parts; left out`);
    return [];
  }
  const parts: Parts = [];
  content.forEach((part: unknown, index) => {
    const at = `${where}.content[${index}]`;
    if (!isObject(part)) return rebuild.skip(at, `${kindOf(part)}; left out`);
    if (
      (part.type === "text" || part.type === "input_text" || part.type === "output_text") &&
      typeof part.text === "string"
    )
      return void parts.push(text(part.text));
    const url =
      part.type === "image_url" && isObject(part.image_url)
        ? part.image_url.url
        : part.type === "input_image"
          ? part.image_url
          : undefined;
    if (typeof url === "string") {
      const image = imageOfDataUrl(url);
      if (image) return void parts.push(image);
      return rebuild.skip(at, "an image given by URL, not inline data; left out (the page fetches nothing)");
    }
    rebuild.skip(at, `${kindOf(part)}; pi-ai's messages have no such part, left out`);
  });
  return parts;
}

/** A system or developer message's text, or undefined when it holds something else too. */
function systemText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part: unknown) =>
    isObject(part) && typeof part.text === "string" ? part.text : undefined,
  );
  return texts.every((value) => value !== undefined) ? texts.join("\n") : undefined;
}

function flatText(parts: Parts | string): string {
  return typeof parts === "string"
    ? parts
    : parts.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** Leading system messages become the prompt; the rest is the conversation. */
function splitPrompt(messages: Message[]): { systemPrompt?: string; messages: Message[] } {
  const prompts: string[] = [];
  let start = 0;
  while (messages[start]?.role === "system") {
    const message = messages[start] as Extract<Message, { role: "system" }>;
    prompts.push(typeof message.content === "string" ? message.content : flatText(message.content));
    start++;
  }
  return {
    ...(prompts.length > 0 ? { systemPrompt: prompts.join("\n\n") } : {}),
    messages: messages.slice(start),
  };
}

export function readChatCompletions(body: Record<string, unknown>, rebuild: Rebuilder): RebuiltContext {
  const messages: Message[] = [];
  const list = Array.isArray(body.messages) ? body.messages : [];
  list.forEach((raw: unknown, index) => {
    const where = `messages[${index}]`;
    if (!isObject(raw)) return rebuild.skip(where, `${kindOf(raw)}, not a message; left out`);
    switch (raw.role) {
      case "system":
      case "developer": {
        const prompt = systemText(raw.content);
        if (prompt === undefined) return rebuild.skip(where, "a system message that is not text; left out");
        return void messages.push({ role: "system", content: prompt, timestamp: 0 });
      }
      case "user":
        return void messages.push(rebuild.user(userParts(raw.content, where, rebuild)));
      case "assistant": {
        const content: AssistantMessage["content"] = [];
        for (const field of ["reasoning_content", "reasoning", "reasoning_text"]) {
          const value = raw[field];
          if (typeof value === "string" && value !== "") content.push(thinking(value));
        }
        const said = raw.content;
        if (typeof said === "string" && said !== "") content.push(text(said));
        else if (Array.isArray(said))
          said.forEach((part: unknown, partIndex) => {
            if (isObject(part) && typeof part.text === "string") content.push(text(part.text));
            else if (isObject(part) && part.type === "refusal" && typeof part.refusal === "string")
              content.push(text(part.refusal));
            else rebuild.skip(`${where}.content[${partIndex}]`, `${kindOf(part)}; left out`);
          });
        if (typeof raw.refusal === "string" && raw.refusal !== "") content.push(text(raw.refusal));
        const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls : [];
        calls.forEach((call: unknown, callIndex) => {
          const at = `${where}.tool_calls[${callIndex}]`;
          if (!isObject(call) || !isObject(call.function) || typeof call.function.name !== "string")
            return rebuild.skip(at, `${kindOf(call)}, not a function call; left out`);
          content.push(
            rebuild.toolCall(
              typeof call.id === "string" ? call.id : undefined,
              call.function.name,
              call.function.arguments,
              at,
            ),
          );
        });
        return void messages.push(rebuild.assistant(content));
      }
      case "tool": {
        if (typeof raw.tool_call_id !== "string")
          return rebuild.skip(where, "a tool result without a tool_call_id; left out");
        const parts = userParts(raw.content, where, rebuild);
        return void messages.push(
          rebuild.toolResult(raw.tool_call_id, typeof parts === "string" ? [text(parts)] : parts, false),
        );
      }
      default:
        rebuild.skip(
          where,
          `a message of role ${JSON.stringify(raw.role)}, which pi-ai has no type for; left out`,
        );
    }
  });
  const tools: Tool[] = [];
  (Array.isArray(body.tools) ? body.tools : []).forEach((raw: unknown, index) => {
    const fn = isObject(raw) && raw.type === "function" && isObject(raw.function) ? raw.function : undefined;
    const read = fn ? tool(fn.name, fn.description, fn.parameters) : undefined;
    if (read) tools.push(read);
    else
      rebuild.skip(
        `tools[${index}]`,
        `${kindOf(raw)}, not a function tool; pi-ai's tools are functions, left out`,
      );
  });
  return { ...splitPrompt(messages), tools };
}

export function readResponses(body: Record<string, unknown>, rebuild: Rebuilder): RebuiltContext {
  const messages: Message[] = [];
  if (typeof body.instructions === "string" && body.instructions !== "")
    messages.push({ role: "system", content: body.instructions, timestamp: 0 });
  /** Consecutive assistant items (text, reasoning, calls) are one assistant message, as pi-ai sends them. */
  let assistant: AssistantMessage | undefined;
  const endAssistant = () => {
    if (assistant) messages.push(assistant);
    assistant = undefined;
  };
  const openAssistant = () => (assistant ??= rebuild.assistant([]));
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  (Array.isArray(input) ? input : []).forEach((raw: unknown, index) => {
    const where = `input[${index}]`;
    if (!isObject(raw)) return rebuild.skip(where, `${kindOf(raw)}, not an input item; left out`);
    const type = raw.type ?? "message";
    if (type === "message" && raw.role === "assistant") {
      const content = openAssistant().content;
      const said = raw.content;
      if (typeof said === "string") content.push(text(said));
      else
        (Array.isArray(said) ? said : []).forEach((part: unknown, partIndex) => {
          if (isObject(part) && part.type === "output_text" && typeof part.text === "string")
            content.push(text(part.text));
          else if (isObject(part) && part.type === "refusal" && typeof part.refusal === "string")
            content.push(text(part.refusal));
          else rebuild.skip(`${where}.content[${partIndex}]`, `${kindOf(part)}; left out`);
        });
      return;
    }
    if (type === "reasoning") {
      const summary = Array.isArray(raw.summary) ? raw.summary : [];
      const said = summary
        .map((part: unknown) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
        .join("\n\n");
      const signature = JSON.stringify(raw);
      openAssistant().content.push(
        thinking(said, signature, said === "" && typeof raw.encrypted_content === "string"),
      );
      return;
    }
    if (type === "function_call") {
      if (typeof raw.name !== "string")
        return rebuild.skip(where, "a function call without a name; left out");
      const callId = typeof raw.call_id === "string" ? raw.call_id : undefined;
      const id = callId !== undefined && typeof raw.id === "string" ? `${callId}|${raw.id}` : callId;
      openAssistant().content.push(rebuild.toolCall(id, raw.name, raw.arguments, where));
      return;
    }
    endAssistant();
    if (type === "function_call_output") {
      if (typeof raw.call_id !== "string")
        return rebuild.skip(where, "a function call output without a call_id; left out");
      const output = raw.output;
      const parts = typeof output === "string" ? [text(output)] : userParts(output, where, rebuild);
      const fullId = findPiped(messages, raw.call_id);
      messages.push(rebuild.toolResult(fullId, typeof parts === "string" ? [text(parts)] : parts, false));
      return;
    }
    if (type === "message" && (raw.role === "system" || raw.role === "developer")) {
      const prompt = systemText(
        Array.isArray(raw.content)
          ? raw.content.map((part: unknown) =>
              isObject(part) && typeof part.text === "string" ? { text: part.text } : part,
            )
          : raw.content,
      );
      if (prompt === undefined) return rebuild.skip(where, "a system message that is not text; left out");
      return void messages.push({ role: "system", content: prompt, timestamp: 0 });
    }
    if (type === "message" && raw.role === "user")
      return void messages.push(rebuild.user(userParts(raw.content, where, rebuild)));
    rebuild.skip(where, `${kindOf(raw)} item, which pi-ai has no type for; left out`);
  });
  endAssistant();
  const tools: Tool[] = [];
  (Array.isArray(body.tools) ? body.tools : []).forEach((raw: unknown, index) => {
    const read =
      isObject(raw) && raw.type === "function" ? tool(raw.name, raw.description, raw.parameters) : undefined;
    if (read) tools.push(read);
    else
      rebuild.skip(
        `tools[${index}]`,
        `${kindOf(raw)}, not a function tool; pi-ai's tools are functions, left out`,
      );
  });
  return { ...splitPrompt(messages), tools };
}

/** A result names its call by `call_id`; pi-ai's id for a Responses call is `call_id|item_id`. */
function findPiped(messages: readonly Message[], callId: string): string {
  for (const message of messages)
    if (message.role === "assistant")
      for (const part of message.content)
        if (part.type === "toolCall" && part.id.split("|")[0] === callId) return part.id;
  return callId;
}
