import type { AssistantMessage } from "@earendil-works/pi-ai";

/**
 * What a reply said, as a diff or a comparison shows it: its text, thinking and tool calls in order
 * (plain text: wherever it is shown, it is shown as text, never as markup).
 */
export function replyText(reply: AssistantMessage | undefined): string {
  if (!reply) return "";
  return reply.content
    .map((part) =>
      part.type === "text"
        ? part.text
        : part.type === "thinking"
          ? `[thinking] ${part.thinking}`
          : `[tool call] ${part.name} ${JSON.stringify(part.arguments)}`,
    )
    .join("\n");
}
