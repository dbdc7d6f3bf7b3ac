import type { Message } from "@earendil-works/pi-ai";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import { assistantParts, jsonChars } from "../messages/tokens.ts";

/**
 * A message's estimate split into its parts, for the anatomy. A module of its own so that it loads with
 * the anatomy: the page's first chunk carries only the estimate (tokens.ts).
 */

/** What pi-ai's estimator counts of a message, part by part. */
export type TokenPart = "system" | "tools" | "text" | "image" | "thinking" | "toolCall";

/** Told the parts of a message (an object, not a callback, so that a long walk allocates nothing per message). */
export interface PartVisitor {
  part(kind: TokenPart, chars: number, blocks: number): void;
}

/**
 * The characters pi-ai's estimator counts for an image, and per token. Used only to split a message's
 * estimate between its parts (the estimate itself is pi-ai's); `tokens.test.ts` fails if pi-ai changes
 * them.
 */
export const ESTIMATED_IMAGE_CHARS = 4_800;
export const CHARS_PER_TOKEN = 3.5;

/**
 * Tells `visitor` each part of `message` with the characters pi-ai's estimator counts for it (tool
 * definitions as one part of as many blocks as tools), and returns
 * pi-ai's estimate of the message, which those characters give: the anatomy splits a request's total by
 * them without measuring anything a second time.
 */
export function measureParts(message: Message, visitor: PartVisitor): number {
  switch (message.role) {
    case "system": {
      const text = getSystemMessageText(message).length;
      const added = toolsChars(message.toolsAdded);
      const removed = toolsChars(message.toolsRemoved);
      visitor.part("system", text, 1);
      const tools = (message.toolsAdded?.length ?? 0) + (message.toolsRemoved?.length ?? 0);
      if (tools > 0) visitor.part("tools", added + removed, tools);
      return (
        Math.ceil(text / CHARS_PER_TOKEN) +
        Math.ceil(added / CHARS_PER_TOKEN) +
        Math.ceil(removed / CHARS_PER_TOKEN)
      );
    }
    case "user":
    case "toolResult": {
      const content = message.content as Message["content"] | undefined;
      let chars = 0;
      if (typeof content === "string") {
        visitor.part("text", content.length, 1);
        chars = content.length;
      } else if (Array.isArray(content))
        for (const part of content) {
          if (part?.type === "image") {
            visitor.part("image", ESTIMATED_IMAGE_CHARS, 1);
            chars += ESTIMATED_IMAGE_CHARS;
          } else if (part?.type === "text") {
            const length = part.text?.length ?? 0;
            visitor.part("text", length, 1);
            chars += length;
          }
        }
      return Math.ceil(chars / CHARS_PER_TOKEN);
    }
    case "assistant": {
      let chars = 0;
      const content = message.content as unknown;
      for (const part of assistantParts(content)) {
        if (part.type === "text") {
          visitor.part("text", part.text.length, 1);
          chars += part.text.length;
        } else if (part.type === "thinking") {
          visitor.part("thinking", part.thinking.length, 1);
          chars += part.thinking.length;
        } else {
          const size = part.name.length + jsonChars(part.arguments);
          visitor.part("toolCall", size, 1);
          chars += size;
        }
      }
      return Math.ceil(chars / CHARS_PER_TOKEN);
    }
    default:
      return 0;
  }
}

function toolsChars(tools: readonly unknown[] | undefined): number {
  return tools && tools.length > 0 ? jsonChars(tools) : 0;
}
