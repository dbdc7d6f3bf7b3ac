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

/**
 * A block of a type pi's types do not have (a later pi's, an extension's, a server's), as a file brings it:
 * pi keeps and sends it as it is, and so does the playground; people see it named by its type.
 */
export function otherBlockLabel(block: unknown): string {
  const type = typeof block === "object" && block !== null ? (block as { type?: unknown }).type : undefined;
  return typeof type === "string" && type !== "" ? `[${type} block]` : "[block of no type]";
}

/** A text or image part as text (an image by its type), or a block of another type by its label. */
export function partText(part: TextContent | ImageContent): string {
  const block: { type: string } = part;
  if (block.type === "text") return (part as TextContent).text;
  if (block.type === "image") return `[image ${(part as ImageContent).mimeType}]`;
  return otherBlockLabel(part);
}
