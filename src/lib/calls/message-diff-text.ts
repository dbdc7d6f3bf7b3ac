import type { Message } from "@earendil-works/pi-ai";
import { replyText } from "../messages/reply-text.ts";

/**
 * A model message as a word diff compares it: its text in order, with what is not text named in brackets
 * (an image, a tool call with its arguments, the tool a result answers). Plain text: a diff shows it as
 * text, never as markup.
 */
export function messageDiffText(message: Message): string {
  switch (message.role) {
    case "assistant":
      return replyText(message);
    case "system": {
      const text = typeof message.content === "string" ? message.content : partsText(message.content);
      const sections = Object.entries(message.sections ?? {}).map(
        ([name, section]) => `[section ${name}]${section === null ? " removed" : `\n${section}`}`,
      );
      return [text, ...sections].join("\n");
    }
    case "user":
      return typeof message.content === "string" ? message.content : partsText(message.content);
    case "toolResult":
      return `[result of ${message.toolName}${message.isError ? ", an error" : ""}]\n${partsText(message.content)}`;
  }
}

function partsText(
  parts: readonly ({ type: "text"; text: string } | { type: "image"; mimeType: string })[],
): string {
  return parts.map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`)).join("\n");
}
