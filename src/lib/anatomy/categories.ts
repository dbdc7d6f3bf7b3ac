/**
 * What a block of the context is, for the anatomy: the parts every request has (system prompt, tool
 * definitions, conversation), and each custom fact type the session converted into user text by its
 * own rule or by policy. The model cannot tell a converted notification from a user message; the
 * session can, because every message sent names the fact behind it.
 */
export const CATEGORIES = [
  "system",
  "tools",
  "userText",
  "assistantText",
  "thinking",
  "toolCalls",
  "toolResults",
  "images",
  "notification",
  "approval_request",
  "progress",
  "bashExecution",
  "branchSummary",
  "compactionSummary",
  "custom",
  "unattributed",
] as const;

export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  system: "system prompt",
  tools: "tool definitions",
  userText: "user text",
  assistantText: "assistant text",
  thinking: "thinking",
  toolCalls: "tool calls",
  toolResults: "tool results",
  images: "images",
  notification: "notifications (by policy)",
  approval_request: "approval requests (by policy)",
  progress: "progress (by policy)",
  bashExecution: "bash executions",
  branchSummary: "branch summaries",
  compactionSummary: "compaction summaries",
  custom: "custom messages",
  unattributed: "not attributable",
};

/** Context Lens's composition categories (LHAR `CompositionCategory`). */
export type LharCategory =
  | "system_prompt"
  | "tool_definitions"
  | "tool_results"
  | "tool_calls"
  | "assistant_text"
  | "user_text"
  | "thinking"
  | "system_injections"
  | "images"
  | "cache_markers"
  | "other";

/** Facts the agent put into the conversation on its own (not typed by the user) count as injections there. */
export const LHAR_CATEGORY: Record<Category, LharCategory> = {
  system: "system_prompt",
  tools: "tool_definitions",
  userText: "user_text",
  assistantText: "assistant_text",
  thinking: "thinking",
  toolCalls: "tool_calls",
  toolResults: "tool_results",
  images: "images",
  notification: "system_injections",
  approval_request: "system_injections",
  progress: "system_injections",
  bashExecution: "system_injections",
  branchSummary: "system_injections",
  compactionSummary: "system_injections",
  custom: "system_injections",
  unattributed: "other",
};

/** The fact roles whose model message is a user message made by conversion, each its own category. */
const CONVERTED_ROLES = new Set<string>([
  "notification",
  "approval_request",
  "progress",
  "bashExecution",
  "branchSummary",
  "compactionSummary",
  "custom",
]);

/** The category of a user message's text, given the role of the fact it came from. */
export function userTextCategory(sourceRole: string | undefined): Category {
  return sourceRole !== undefined && CONVERTED_ROLES.has(sourceRole) ? (sourceRole as Category) : "userText";
}
