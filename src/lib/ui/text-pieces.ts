import { positiveInt } from "../../shared/positive-int.ts";

/** A piece aims at this many characters; it ends at the first line break past it, or at twice it. */
export const PIECE_CHARS = 4_000;

/**
 * Splits a long text into pieces shown as consecutive blocks, so that a text growing at its end (a reply
 * streaming) changes only its last piece: one text node holding a megabyte is laid out whole again at
 * every update, which froze the page for hundreds of milliseconds per frame.
 *
 * Boundaries are decided from the left and only once the text runs `2 × target` past the piece's start, so
 * a piece never changes as the text grows. A piece ends at a line break when one falls in its second half
 * (the break itself becomes the boundary between blocks, so nothing shows differently); a line longer than
 * that is cut at `target` characters, which only moves where that long line wraps.
 */
export function textPieces(text: string, target = PIECE_CHARS): string[] {
  const max = 2 * target;
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    // Only the piece's second half is searched: a search to the end of a text without line breaks, for each
    // piece, made a megabyte's pieces cost more than showing them.
    const inWindow = text.slice(start + target, start + max).indexOf("\n");
    if (inWindow !== -1) {
      const lineEnd = start + target + inWindow;
      pieces.push(text.slice(start, lineEnd));
      start = lineEnd + 1;
    } else {
      pieces.push(text.slice(start, start + target));
      start += target;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * A long text shows this many characters at first, and this many more at each "show more": a reply of
 * megabytes laid out and kept in the page whole froze it for hundreds of milliseconds as it streamed.
 */
export const TEXT_SHOWN_CHARS = positiveInt(import.meta.env?.VITE_TEXT_SHOWN_CHARS) ?? 200_000;

/**
 * How the shown part is cut from a text: `joined-text.ts`, loaded with the first import that joins a text
 * from pieces, sets its `textSlice`, which reads such a text from its pieces (slicing it whole would make it
 * one flat string of megabytes). Set there, not imported here: until then no text is joined, and the first
 * page load does not carry it.
 */
let sliceText = (text: string, start: number, end: number): string => text.slice(start, end);

export function cutShownTextWith(slice: (text: string, start: number, end: number) => string): void {
  sliceText = slice;
}

/**
 * The part of a text shown with `pages` pages revealed, in pieces, and how many characters it leaves out.
 * Only the shown part is cut into pieces, so the work done as the text grows past it stays the same.
 */
export function shownText(
  text: string,
  pages = 1,
  pageChars = TEXT_SHOWN_CHARS,
  target = PIECE_CHARS,
): { pieces: string[]; hidden: number } {
  const limit = pages * pageChars;
  // Read from its pieces when it was joined from them: slicing the whole would flatten megabytes.
  const shown = text.length <= limit ? text : sliceText(text, 0, limit);
  return { pieces: textPieces(shown, target), hidden: text.length - shown.length };
}
