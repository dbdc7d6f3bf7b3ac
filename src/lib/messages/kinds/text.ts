import { formatJsonBounded } from "../../ui/bounded-json.ts";

/** How long a preview line may be; the kinds' previews may be longer, the preview cuts them. */
export const PREVIEW_LENGTH = 140;

/** How much of a long text a title reads (a title is one short line; see the session tree's titles). */
export const TITLE_SOURCE_LENGTH = 480;

type Part = {
  type: string;
  text?: string;
  thinking?: string;
  name?: string;
  mimeType?: string;
  arguments?: unknown;
};

/** Content as one preview text: text as it is, thinking and tool calls marked, an image by its type. */
export function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as (Part | null | undefined)[])
    .map((part) => {
      const type: string = part?.type ?? "";
      switch (type) {
        case "text":
          return part?.text ?? "";
        case "thinking":
          return `(thinking) ${part?.thinking ?? ""}`;
        case "toolCall":
          return `→ ${part?.name ?? "tool"}(${formatJsonBounded(part?.arguments ?? {}, { indent: 0, maxChars: PREVIEW_LENGTH })})`;
        case "image":
          return `[image ${part?.mimeType ?? ""}]`;
        default:
          return "";
      }
    })
    .filter(Boolean)
    .join(" ");
}

/**
 * Markdown's inline marks taken out of a text, for a one-line title: code spans and emphasis keep their
 * text, links their label, and the marks at the start of a line (headings, quotes, lists, fences) go.
 */
export function withoutMarkdown(text: string): string {
  return text
    .replace(/^\s*(?:`{3,}|~{3,}).*$/gm, "")
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(`+)(.+?)\1/g, "$2")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1$2");
}
