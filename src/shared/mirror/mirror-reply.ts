import type { JsonObject, Message, TextContent, ThinkingContent, ToolCall } from "@earendil-works/pi-ai";
import { countOf } from "../count-of.ts";
import { DEMO_TOOL_NAMES } from "../demo-tool-names.ts";

/**
 * The offline "mirror" model's answers. It is deterministic and tells the user exactly what reached it,
 * so a reply can be checked against the inspector's model view. Pure: same messages, same reply.
 */

export type MirrorBlock = TextContent | ThinkingContent | ToolCall;

export interface MirrorTurn {
  content: MirrorBlock[];
  stopReason: "stop" | "toolUse";
}

export interface MirrorOptions {
  /** Emit a thinking block before the answer, as the reasoning variant does. */
  thinking: boolean;
}

export function mirrorReply(messages: readonly Message[], options: MirrorOptions): MirrorTurn {
  const roles = messages.map((message) => message.role);
  const received = describeReceived(roles);
  const trailingResults = trailingToolResults(messages);
  const blocks: MirrorBlock[] = [];

  if (trailingResults.length > 0) {
    if (options.thinking) {
      blocks.push(
        thinking(
          `${received} The request ends with ${countOf(trailingResults.length, "tool result")}, so I report them.`,
        ),
      );
    }
    const lines = trailingResults.map((result) => {
      const text = contentText(result.content) || "(empty result)";
      return `- \`${result.toolName}\`${result.isError ? " failed" : " returned"}: ${text}`;
    });
    blocks.push(text(`${received}\n\n${lines.join("\n")}`));
    return { content: blocks, stopReason: "stop" };
  }

  const lastUser = findLast(messages, (message) => message.role === "user");
  const question = lastUser ? contentText(lastUser.content) : "";

  if (/\bshow (the )?context\b/i.test(question)) {
    if (options.thinking)
      blocks.push(thinking(`${received} The user asked to see the context, so I list every message.`));
    blocks.push(text(`${received}\n\n${messages.map(renderMessage).join("\n\n")}`));
    return { content: blocks, stopReason: "stop" };
  }

  const declared = new Set(declaredToolNames(messages));
  const asked = askedToolCalls(question, declared);
  if ("problem" in asked) {
    if (options.thinking) blocks.push(thinking(`${received} ${asked.problem}`));
    blocks.push(text(`${received}\n\n${asked.problem}`));
    return { content: blocks, stopReason: "stop" };
  }
  const planned = asked.calls.length > 0 ? asked.calls : plannedToolCalls(question, declared);
  const calls = planned.map((call, index) => ({
    type: "toolCall" as const,
    id: `mirror_${messages.length}_${index}`,
    name: call.name,
    arguments: call.arguments,
  }));

  if (options.thinking) {
    const plan =
      calls.length > 0
        ? `I will call ${calls.map((call) => call.name).join(" and ")}.`
        : "I will quote it back.";
    blocks.push(thinking(`${received} The last user message is ${question.length} characters long. ${plan}`));
  }

  if (calls.length > 0) {
    blocks.push(text(`${received}\n\nCalling ${calls.map((call) => `\`${call.name}\``).join(" and ")}.`));
    blocks.push(...calls);
    return { content: blocks, stopReason: "toolUse" };
  }

  const quote = lastUser ? quoteMarkdown(question || "(no text)") : "> (there is no user message)";
  blocks.push(text(`${received}\n\nThe last user message was:\n\n${quote}`));
  return { content: blocks, stopReason: "stop" };
}

function describeReceived(roles: readonly string[]): string {
  if (roles.length === 0) return "I received no messages.";
  return `I received ${countOf(roles.length, "message")}: ${roles.join(", ")}.`;
}

function text(value: string): TextContent {
  return { type: "text", text: value };
}

function thinking(value: string): ThinkingContent {
  return { type: "thinking", thinking: value };
}

function findLast<T, S extends T>(items: readonly T[], predicate: (item: T) => item is S): S | undefined;
function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): T | undefined;
function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): T | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index] as T;
    if (predicate(item)) return item;
  }
  return undefined;
}

type ToolResult = Extract<Message, { role: "toolResult" }>;

function trailingToolResults(messages: readonly Message[]): ToolResult[] {
  const results: ToolResult[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "toolResult") break;
    results.unshift(message);
  }
  return results;
}

function contentText(
  content: string | readonly (TextContent | { type: "image"; mimeType: string })[],
): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`)).join("\n");
}

function quoteMarkdown(value: string): string {
  return value
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

function declaredToolNames(messages: readonly Message[]): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== "system") continue;
    for (const removed of message.toolsRemoved ?? []) names.delete(removed.name);
    for (const added of message.toolsAdded ?? []) names.add(added.name);
  }
  return [...names];
}

interface PlannedCall {
  name: string;
  arguments: JsonObject;
}

const CALL_REQUEST = /\bcall\s+`?([A-Za-z_][A-Za-z0-9_-]{0,63})`?/gi;

/**
 * Calls asked for by name, for any tool the request declares: "call lookup_order with {"id": 7}" (the JSON
 * object after "with"; none: no arguments), several in one message. A declared tool named with arguments
 * that are not a JSON object is said rather than called with something else.
 */
function askedToolCalls(
  question: string,
  declared: ReadonlySet<string>,
): { calls: PlannedCall[] } | { problem: string } {
  const calls: PlannedCall[] = [];
  for (const match of question.matchAll(CALL_REQUEST)) {
    const name = match[1] as string;
    if (!declared.has(name)) continue;
    const after = question.slice((match.index ?? 0) + match[0].length);
    const withArgs = /^\s+with\s+/i.exec(after);
    if (!withArgs) {
      calls.push({ name, arguments: {} });
      continue;
    }
    const json = leadingJsonObject(after.slice(withArgs[0].length));
    let args: unknown;
    try {
      args = json === undefined ? undefined : JSON.parse(json);
    } catch {
      args = undefined;
    }
    if (typeof args !== "object" || args === null || Array.isArray(args))
      return { problem: `I could not call \`${name}\`: the arguments after "with" are not a JSON object.` };
    calls.push({ name, arguments: args as JsonObject });
  }
  return { calls };
}

/** The JSON object text at the start of `text` (braces balanced, strings respected); undefined when none. */
function leadingJsonObject(text: string): string | undefined {
  if (!text.startsWith("{")) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return text.slice(0, index + 1);
  }
  return undefined;
}

const ARITHMETIC_CHARS = /[\d\s.+\-*/^%()]/;
const BINARY_OPERATOR = /[\d)]\s*[-+*/^%]\s*[-(\d]/;

/** The first run of arithmetic characters that holds a binary operation; one pass, no backtracking. */
function findArithmetic(question: string): string | undefined {
  let start = 0;
  for (let index = 0; index <= question.length; index++) {
    const char = question[index];
    if (char !== undefined && ARITHMETIC_CHARS.test(char)) continue;
    const run = trimRun(question.slice(start, index));
    if (run && BINARY_OPERATOR.test(run)) return run;
    start = index + 1;
  }
  return undefined;
}

/** Cut a run down to what can start and end an expression: a digit, "(" or "-" in front; a digit or ")" behind. */
function trimRun(run: string): string {
  let first = 0;
  while (first < run.length && !/[-(\d]/.test(run[first] as string)) first++;
  let last = run.length - 1;
  while (last >= first && !/[\d)]/.test(run[last] as string)) last--;
  return run.slice(first, last + 1).trim();
}

function plannedToolCalls(question: string, declared: ReadonlySet<string>): PlannedCall[] {
  const calls: PlannedCall[] = [];
  const note = /\b(?:save|write|remember|store)\b[^:\n]*:\s*(.+)/i.exec(question);
  if (note?.[1] && declared.has(DEMO_TOOL_NAMES.note)) {
    calls.push({ name: DEMO_TOOL_NAMES.note, arguments: { text: note[1].trim() } });
  }
  if (/\b(time|date|clock|today)\b/i.test(question) && declared.has(DEMO_TOOL_NAMES.time)) {
    calls.push({ name: DEMO_TOOL_NAMES.time, arguments: {} });
  }
  const expression = note ? undefined : findArithmetic(question);
  if (expression && declared.has(DEMO_TOOL_NAMES.arithmetic)) {
    calls.push({
      name: DEMO_TOOL_NAMES.arithmetic,
      arguments: { expression: balanceParentheses(expression) },
    });
  }
  return calls;
}

/** The expression pattern can cut a trailing ")" off; restore the balance so the tool can parse it. */
function balanceParentheses(expression: string): string {
  let depth = 0;
  for (const char of expression) {
    if (char === "(") depth++;
    else if (char === ")") depth--;
  }
  return depth > 0 ? expression + ")".repeat(depth) : expression;
}

function renderMessage(message: Message, index: number): string {
  const heading = `**${index + 1}. ${message.role}**`;
  return `${heading}\n${fenced(messageBody(message))}`;
}

function messageBody(message: Message): string {
  switch (message.role) {
    case "system": {
      const parts = [contentText(message.content)];
      for (const [name, value] of Object.entries(message.sections ?? {}))
        parts.push(`[section ${name}] ${value ?? "(removed)"}`);
      const added = message.toolsAdded?.map((tool) => tool.name) ?? [];
      const removed = message.toolsRemoved?.map((tool) => tool.name) ?? [];
      if (added.length > 0) parts.push(`[tools added] ${added.join(", ")}`);
      if (removed.length > 0) parts.push(`[tools removed] ${removed.join(", ")}`);
      return parts.filter((part) => part.length > 0).join("\n") || "(empty)";
    }
    case "user":
      return contentText(message.content) || "(empty)";
    case "assistant":
      return (
        message.content
          .map((block) => {
            if (block.type === "text") return block.text;
            if (block.type === "thinking") return `[thinking] ${block.thinking}`;
            return `[tool call ${block.name}] ${JSON.stringify(block.arguments)}`;
          })
          .join("\n") || "(empty)"
      );
    case "toolResult":
      return `[${message.toolName}${message.isError ? ", error" : ""}] ${contentText(message.content) || "(empty)"}`;
  }
}

/** A code fence longer than any backtick run inside, so quoted content cannot close it. */
function fenced(body: string): string {
  const longestRun = Math.max(2, ...Array.from(body.matchAll(/`+/g), (match) => match[0].length));
  const fence = "`".repeat(longestRun + 1);
  return `${fence}text\n${body}\n${fence}`;
}
