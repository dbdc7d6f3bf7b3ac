import { MESSAGE_KINDS, kindOfRole, type KnownRole } from "../messages/kinds/index.ts";
import type { AnatomyCategory, LharCategory } from "../messages/kinds/kind.ts";

export type { LharCategory };

/**
 * What a block of the context is, for the anatomy: the parts every request has (system prompt, tool
 * definitions, conversation), and each custom fact type the session converted into user text by its
 * own rule or by policy (each message kind names its category). The model cannot tell a converted
 * notification from a user message; the session can, because every message sent names the fact behind it.
 */
const BLOCK_CATEGORIES = {
  system: { label: "system prompt", lhar: "system_prompt" },
  tools: { label: "tool definitions", lhar: "tool_definitions" },
  userText: { label: "user text", lhar: "user_text" },
  assistantText: { label: "assistant text", lhar: "assistant_text" },
  thinking: { label: "thinking", lhar: "thinking" },
  toolCalls: { label: "tool calls", lhar: "tool_calls" },
  toolResults: { label: "tool results", lhar: "tool_results" },
  images: { label: "images", lhar: "images" },
} as const satisfies Record<string, AnatomyCategory>;

/** The roles whose kind names an anatomy category: their facts reach the model as converted user text. */
export type ConvertedRole = {
  [R in KnownRole]: (typeof MESSAGE_KINDS)[R]["anatomy"] extends null ? never : R;
}[KnownRole];

export type Category = keyof typeof BLOCK_CATEGORIES | ConvertedRole | "unattributed";

const UNATTRIBUTED: AnatomyCategory = { label: "not attributable", lhar: "other" };

const CONVERTED = (Object.keys(MESSAGE_KINDS) as KnownRole[]).filter(
  (role): role is ConvertedRole => MESSAGE_KINDS[role].anatomy !== null,
);

export const CATEGORIES: readonly Category[] = [
  ...(Object.keys(BLOCK_CATEGORIES) as (keyof typeof BLOCK_CATEGORIES)[]),
  ...CONVERTED,
  "unattributed",
];

function categoryOf(category: Category): AnatomyCategory {
  if (category === "unattributed") return UNATTRIBUTED;
  if (Object.hasOwn(BLOCK_CATEGORIES, category))
    return BLOCK_CATEGORIES[category as keyof typeof BLOCK_CATEGORIES];
  return MESSAGE_KINDS[category as ConvertedRole].anatomy;
}

export const CATEGORY_LABELS = Object.fromEntries(
  CATEGORIES.map((category) => [category, categoryOf(category).label]),
) as Record<Category, string>;

/** Facts the agent put into the conversation on its own (not typed by the user) count as injections there. */
export const LHAR_CATEGORY = Object.fromEntries(
  CATEGORIES.map((category) => [category, categoryOf(category).lhar]),
) as Record<Category, LharCategory>;

const CONVERTED_ROLES: ReadonlySet<string> = new Set(CONVERTED);

/**
 * The category of a user message's text, given the role of the fact it came from. A kind registered while
 * the page runs (an extension's) that names a category counts with the custom messages: the categories are
 * the table's.
 */
export function userTextCategory(sourceRole: string | undefined): Category {
  if (sourceRole === undefined) return "userText";
  if (CONVERTED_ROLES.has(sourceRole)) return sourceRole as ConvertedRole;
  return kindOfRole(sourceRole).anatomy ? "custom" : "userText";
}
