import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { MAX_SEARCHED_LENGTH } from "../ui/text-search.ts";
import { kindOf } from "./kinds/index.ts";
import { preview } from "./preview.ts";

/** What a search reads of a message: its names (badge, role) and its text. */
export interface MessageSearchText {
  /** Its badge and role: "toolResult", "custom:reminder custom", "compactionSummary". */
  readonly names: string;
  /** Its preview line and its whole text (tool names and arguments, thinking), cut to what is searched. */
  readonly body: string;
  /**
   * Both, as the texts a search reads (a row matches when one of them holds the query). Not joined into
   * one: the search would make a flat copy of each joined text and keep it with the cache, a second copy
   * of every fact's text.
   */
  readonly texts: readonly [string, string];
}

const cache = new WeakMap<object, MessageSearchText>();

/**
 * The text a search in a list of facts or model messages reads: the role and badge (a custom message's
 * type), the tool's name (a tool result's preview starts with it, a tool call is written `name(args)`),
 * the text, and thinking. Cached per message object (facts are never changed in place); the body keeps
 * only the first MAX_SEARCHED_LENGTH characters, as the search reads no more, so the cache stays small.
 */
export function searchTextOf(message: AgentMessage): MessageSearchText {
  const hit = cache.get(message);
  if (hit) return hit;
  const kind = kindOf(message);
  const role = String((message as { role?: unknown }).role ?? "");
  const badge = safely(() => kind.badge(message));
  const names = badge === role ? role : `${badge} ${role}`;
  const body = [safely(() => preview(message)), safely(() => kind.copyText(message)), thinkingOf(message)]
    .filter((text) => text !== "")
    .join("\n")
    .slice(0, MAX_SEARCHED_LENGTH);
  const text = { names, body, texts: [names, body] as const };
  cache.set(message, text);
  return text;
}

/** A fact read from a file may break what a kind expects of it: its text is then what could be read. */
function safely(read: () => string): string {
  try {
    const text = read();
    return typeof text === "string" ? text : "";
  } catch {
    return "";
  }
}

/** The thinking of a reply, which its copy text leaves out. */
function thinkingOf(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      const block = part as { type?: unknown; thinking?: unknown } | null;
      return block?.type === "thinking" && typeof block.thinking === "string" ? block.thinking : "";
    })
    .filter((text) => text !== "")
    .join("\n");
}
