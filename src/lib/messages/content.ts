import type { ImageContent, TextContent } from "@earendil-works/pi-ai";

/**
 * Message content as a list of parts: a plain string becomes one text part, the form providers receive.
 * A list is returned as it is, not copied, so converted messages share their parts with the facts.
 */
export function contentParts<Part extends TextContent | ImageContent>(
  content: string | Part[],
): (TextContent | Part)[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}
