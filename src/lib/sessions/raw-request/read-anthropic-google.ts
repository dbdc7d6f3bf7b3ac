import type { AssistantMessage, ImageContent, Message, TextContent, Tool } from "@earendil-works/pi-ai";
import { isObject } from "../../../shared/is-object.ts";
import { kindOf, Rebuilder, text, thinking, tool, type RebuiltContext } from "./rebuilt.ts";

/**
 * Anthropic's messages and Google's generateContent read into pi-ai's types. Both carry tool results in
 * a user turn: each result becomes a pi-ai tool result message, and the turn's other parts a user message
 * after them (pi-ai's adapters put consecutive results into one such turn).
 */

type Parts = (TextContent | ImageContent)[];

function promptOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  const parts = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.parts)
      ? value.parts
      : undefined;
  if (!parts) return undefined;
  return parts
    .map((part: unknown) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
    .join("\n");
}

export function readAnthropic(body: Record<string, unknown>, rebuild: Rebuilder): RebuiltContext {
  const messages: Message[] = [];
  const list = Array.isArray(body.messages) ? body.messages : [];
  list.forEach((raw: unknown, index) => {
    const where = `messages[${index}]`;
    if (!isObject(raw)) return rebuild.skip(where, `${kindOf(raw)}, not a message; left out`);
    const blocks: unknown[] =
      typeof raw.content === "string"
        ? [{ type: "text", text: raw.content }]
        : Array.isArray(raw.content)
          ? raw.content
          : [];
    if (raw.role === "assistant") {
      const content: AssistantMessage["content"] = [];
      blocks.forEach((block, blockIndex) => {
        const at = `${where}.content[${blockIndex}]`;
        if (!isObject(block)) return rebuild.skip(at, `${kindOf(block)}; left out`);
        if (block.type === "text" && typeof block.text === "string")
          return void content.push(text(block.text));
        if (block.type === "thinking" && typeof block.thinking === "string")
          return void content.push(
            thinking(block.thinking, typeof block.signature === "string" ? block.signature : undefined),
          );
        if (block.type === "redacted_thinking" && typeof block.data === "string")
          return void content.push(thinking("", block.data, true));
        if (block.type === "tool_use" && typeof block.name === "string")
          return void content.push(
            rebuild.toolCall(
              typeof block.id === "string" ? block.id : undefined,
              block.name,
              block.input,
              at,
            ),
          );
        rebuild.skip(at, `${kindOf(block)}, which pi-ai's assistant messages have no type for; left out`);
      });
      return void messages.push(rebuild.assistant(content));
    }
    if (raw.role !== "user")
      return rebuild.skip(
        where,
        `a message of role ${JSON.stringify(raw.role)}, which this shape does not have; left out`,
      );
    const parts: Parts = [];
    const plain = typeof raw.content === "string";
    blocks.forEach((block, blockIndex) => {
      const at = `${where}.content[${blockIndex}]`;
      if (!isObject(block)) return rebuild.skip(at, `${kindOf(block)}; left out`);
      if (block.type === "text" && typeof block.text === "string") return void parts.push(text(block.text));
      if (block.type === "image") {
        const source = block.source;
        if (
          isObject(source) &&
          source.type === "base64" &&
          typeof source.data === "string" &&
          typeof source.media_type === "string"
        )
          return void parts.push({ type: "image", data: source.data, mimeType: source.media_type });
        return rebuild.skip(
          at,
          "an image given by URL or file, not inline data; left out (the page fetches nothing)",
        );
      }
      if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
        const inner: unknown[] =
          typeof block.content === "string"
            ? [{ type: "text", text: block.content }]
            : Array.isArray(block.content)
              ? block.content
              : [];
        const resultParts: Parts = [];
        inner.forEach((part, partIndex) => {
          if (isObject(part) && part.type === "text" && typeof part.text === "string")
            resultParts.push(text(part.text));
          else if (
            isObject(part) &&
            part.type === "image" &&
            isObject(part.source) &&
            typeof part.source.data === "string" &&
            typeof part.source.media_type === "string"
          )
            resultParts.push({ type: "image", data: part.source.data, mimeType: part.source.media_type });
          else rebuild.skip(`${at}.content[${partIndex}]`, `${kindOf(part)}; left out`);
        });
        return void messages.push(
          rebuild.toolResult(block.tool_use_id, resultParts, block.is_error === true),
        );
      }
      rebuild.skip(at, `${kindOf(block)}, which pi-ai's user messages have no type for; left out`);
    });
    if (parts.length > 0 || blocks.length === 0) {
      const only = parts[0];
      messages.push(rebuild.user(plain && parts.length === 1 && only?.type === "text" ? only.text : parts));
    }
  });
  const tools: Tool[] = [];
  (Array.isArray(body.tools) ? body.tools : []).forEach((raw: unknown, index) => {
    const read =
      isObject(raw) && (raw.type === undefined || raw.type === "custom")
        ? tool(raw.name, raw.description, raw.input_schema)
        : undefined;
    if (read) tools.push(read);
    else
      rebuild.skip(
        `tools[${index}]`,
        `${kindOf(raw)}, a tool the provider runs itself; pi-ai's tools are functions, left out`,
      );
  });
  const systemPrompt = body.system === undefined ? undefined : promptOf(body.system);
  if (body.system !== undefined && systemPrompt === undefined)
    rebuild.skip("system", `${kindOf(body.system)}, not text; left out`);
  return { ...(systemPrompt !== undefined ? { systemPrompt } : {}), messages, tools };
}

/** A function response's text: its `output` or `error` as pi-ai's adapter writes it, else its JSON. */
function responseText(response: unknown): { text: string; isError: boolean } {
  if (isObject(response) && typeof response.output === "string")
    return { text: response.output, isError: false };
  if (isObject(response) && typeof response.error === "string")
    return { text: response.error, isError: true };
  return { text: JSON.stringify(response ?? null), isError: false };
}

export function readGoogle(body: Record<string, unknown>, rebuild: Rebuilder): RebuiltContext {
  // The REST body has the prompt and tools at the top; the SDK's (and pi-ai's) under `config`.
  const config = isObject(body.config) ? body.config : body;
  const messages: Message[] = [];
  /** Calls waiting for their result, by name, for responses that carry no id. */
  const waiting = new Map<string, string[]>();
  const list = Array.isArray(body.contents) ? body.contents : [];
  list.forEach((raw: unknown, index) => {
    const where = `contents[${index}]`;
    if (!isObject(raw)) return rebuild.skip(where, `${kindOf(raw)}, not a content; left out`);
    const parts: unknown[] = Array.isArray(raw.parts) ? raw.parts : [];
    if (raw.role === "model") {
      const content: AssistantMessage["content"] = [];
      parts.forEach((part, partIndex) => {
        const at = `${where}.parts[${partIndex}]`;
        if (!isObject(part)) return rebuild.skip(at, `${kindOf(part)}; left out`);
        const signature = typeof part.thoughtSignature === "string" ? part.thoughtSignature : undefined;
        if (typeof part.text === "string")
          return void content.push(part.thought === true ? thinking(part.text, signature) : text(part.text));
        if (isObject(part.functionCall) && typeof part.functionCall.name === "string") {
          const call = rebuild.toolCall(
            typeof part.functionCall.id === "string" ? part.functionCall.id : undefined,
            part.functionCall.name,
            part.functionCall.args ?? {},
            at,
          );
          if (signature) call.thoughtSignature = signature;
          waiting.set(call.name, [...(waiting.get(call.name) ?? []), call.id]);
          return void content.push(call);
        }
        rebuild.skip(
          at,
          `${Object.keys(part).join(", ") || "an empty part"}, which pi-ai's assistant messages have no type for; left out`,
        );
      });
      return void messages.push(rebuild.assistant(content));
    }
    if (raw.role !== "user" && raw.role !== undefined)
      return rebuild.skip(where, `a content of role ${JSON.stringify(raw.role)}; left out`);
    const userParts: Parts = [];
    parts.forEach((part, partIndex) => {
      const at = `${where}.parts[${partIndex}]`;
      if (!isObject(part)) return rebuild.skip(at, `${kindOf(part)}; left out`);
      if (typeof part.text === "string") return void userParts.push(text(part.text));
      if (
        isObject(part.inlineData) &&
        typeof part.inlineData.data === "string" &&
        typeof part.inlineData.mimeType === "string"
      )
        return void userParts.push({
          type: "image",
          data: part.inlineData.data,
          mimeType: part.inlineData.mimeType,
        });
      if (isObject(part.functionResponse) && typeof part.functionResponse.name === "string") {
        const name = part.functionResponse.name;
        const queue = waiting.get(name) ?? [];
        const id = typeof part.functionResponse.id === "string" ? part.functionResponse.id : queue[0];
        if (id === undefined)
          return rebuild.skip(at, `a response from ${name} that answers no call; left out`);
        waiting.set(
          name,
          queue.filter((waitingId) => waitingId !== id),
        );
        const result = responseText(part.functionResponse.response);
        const resultParts: Parts = [text(result.text)];
        const inner = part.functionResponse.parts;
        if (Array.isArray(inner))
          for (const item of inner)
            if (
              isObject(item) &&
              isObject(item.inlineData) &&
              typeof item.inlineData.data === "string" &&
              typeof item.inlineData.mimeType === "string"
            )
              resultParts.push({
                type: "image",
                data: item.inlineData.data,
                mimeType: item.inlineData.mimeType,
              });
        return void messages.push(rebuild.toolResult(id, resultParts, result.isError, name));
      }
      rebuild.skip(
        at,
        `${Object.keys(part).join(", ") || "an empty part"}, which pi-ai's user messages have no type for; left out`,
      );
    });
    if (userParts.length > 0) messages.push(rebuild.user(userParts));
  });
  const tools: Tool[] = [];
  (Array.isArray(config.tools) ? config.tools : []).forEach((raw: unknown, index) => {
    if (!isObject(raw) || !Array.isArray(raw.functionDeclarations))
      return rebuild.skip(
        `tools[${index}]`,
        `${isObject(raw) ? Object.keys(raw).join(", ") : kindOf(raw)}, a tool the provider runs itself; left out`,
      );
    raw.functionDeclarations.forEach((declaration: unknown, declarationIndex) => {
      const read = isObject(declaration)
        ? tool(
            declaration.name,
            declaration.description,
            declaration.parametersJsonSchema ?? declaration.parameters,
          )
        : undefined;
      if (read) tools.push(read);
      else
        rebuild.skip(
          `tools[${index}].functionDeclarations[${declarationIndex}]`,
          `${kindOf(declaration)}; left out`,
        );
    });
  });
  const system = config.systemInstruction;
  const systemPrompt = system === undefined ? undefined : promptOf(system);
  if (system !== undefined && systemPrompt === undefined)
    rebuild.skip("systemInstruction", `${kindOf(system)}, not text; left out`);
  return { ...(systemPrompt !== undefined ? { systemPrompt } : {}), messages, tools };
}
