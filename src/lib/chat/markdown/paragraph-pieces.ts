import { PIECE_CHARS } from "../../ui/text-pieces.ts";

/** Elements without a closing tag: they open nothing that a cut could split. */
const VOID_ELEMENTS = new Set(["br", "wbr", "img", "input", "hr"]);

const OPENING = "<p>";
const CLOSING = "</p>";

/** The class of a paragraph's piece that the next block continues: no margin between them. */
export const CONTINUED_CLASS = "continued";

/**
 * Splits the HTML of a long paragraph into consecutive paragraphs of about `target` characters, as
 * `textPieces` does for plain text. One paragraph of hundreds of kilobytes (a reply with no blank line) is
 * one inline run that the browser shapes and lays out whole whenever it changes: 40–60 ms of layout at
 * every frame of a streamed reply. In pieces, each a block that is skipped while out of view, a growing
 * paragraph changes only its last piece, and only that one is sanitized and laid out again.
 *
 * A piece ends at the first space or line break at its top level (outside any element, so every piece is
 * well-formed and no link or emphasis is split) at least `target` characters into it, and only once the
 * paragraph runs `2 × target` past the piece's start: a piece never changes as the paragraph grows at its
 * end. The space itself becomes the boundary between blocks, so it only moves where that line wraps.
 * Anything that is not a `<p>` of that size is returned whole.
 */
export function paragraphPieces(html: string, target = PIECE_CHARS): string[] {
  const max = 2 * target;
  if (html.length <= max || !html.startsWith(OPENING)) return [html];
  const end = html.lastIndexOf(CLOSING);
  if (end < OPENING.length) return [html];
  const inner = html.slice(OPENING.length, end);
  const closing = html.slice(end);
  const pieces: string[] = [];
  let start = 0;
  let depth = 0;
  for (let at = 0; at < inner.length && inner.length - start > max; at++) {
    const character = inner[at];
    if (character === "<") {
      const tagEnd = inner.indexOf(">", at);
      if (tagEnd === -1) break;
      const tag = inner.slice(at + 1, tagEnd);
      const name = /^[a-z0-9]+/i.exec(tag)?.[0].toLowerCase() ?? "";
      if (tag.startsWith("/")) depth--;
      else if (!tag.endsWith("/") && !VOID_ELEMENTS.has(name)) depth++;
      at = tagEnd;
      continue;
    }
    // Not before a line break (`end \` then a new line): a piece that begins with one shows an empty line.
    const cuttable = (character === " " || character === "\n") && !inner.startsWith("<br", at + 1);
    if (cuttable && depth === 0 && at >= start + target && at < inner.length - 1) {
      pieces.push(`<p class="${CONTINUED_CLASS}">${inner.slice(start, at)}${closing}`);
      start = at + 1;
    }
  }
  pieces.push(`${OPENING}${inner.slice(start)}${closing}`);
  return pieces;
}
