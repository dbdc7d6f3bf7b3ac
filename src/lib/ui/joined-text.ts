/**
 * Very long texts made on the page by joining pieces, read without making them one flat string. V8 keeps
 * `a + b` as a rope of its pieces and makes it one flat string the first time it is sliced, searched or
 * serialized: for a text of 30 MB that is a fresh 30 MB block of memory written in one go, and on this
 * project's test machine the first touch of fresh memory costs about 5 µs per 4 kB page, so that one
 * slice was a task of 130–190 ms (Chromium trace of the 30 MB line's import, 3 December: `shownText`,
 * showing the first 200,000 characters of it, 157 ms of CPU). A text joined here remembers its pieces;
 * `textSlice` and `textCharCodeAt` read a remembered text from its pieces (each already flat, at most a
 * megabyte), and anything else reads it as the string it is.
 */

import { cutShownTextWith } from "./text-pieces.ts";

/** A text shorter than this is never looked up: flattening it costs less than looking. */
const REMEMBERED_FROM = 64 * 1024;

interface Pieces {
  text: string;
  pieces: readonly string[];
  /** Where each piece starts in the text. */
  starts: readonly number[];
}

// A list compared by `===`, which finds the same string by identity: a Map keyed by the text hashed it,
// and Chromium's V8 flattens a rope to hash it (an 838 ms task in a trace). A different text of the same
// length is compared by its characters, and flattened, but then both are read correctly, only slower.
const joined: Pieces[] = [];
// Forgotten when the object that holds the text is collected; until then the pieces are the text's own
// memory (the rope holds them), so remembering them costs nothing more.
const forget = new FinalizationRegistry<Pieces>((known) => {
  const at = joined.indexOf(known);
  if (at !== -1) joined.splice(at, 1);
});

/**
 * The pieces joined, remembered as `holder`'s text until `holder` is collected. The result is the same
 * string `pieces.join("")` is.
 */
export function joinPieces(pieces: readonly string[], holder: object): string {
  let text = "";
  const starts: number[] = [];
  for (const piece of pieces) {
    starts.push(text.length);
    text += piece;
  }
  if (text.length >= REMEMBERED_FROM && pieces.length > 1) {
    const known: Pieces = { text, pieces: [...pieces], starts };
    joined.push(known);
    forget.register(holder, known);
  }
  return text;
}

function remembered(text: string): Pieces | undefined {
  if (text.length < REMEMBERED_FROM) return undefined;
  for (const known of joined) if (known.text.length === text.length && known.text === text) return known;
  return undefined;
}

/** The index of the piece holding character `index` (the last piece starting at or before it). */
function pieceAt({ starts }: Pieces, index: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** `text.slice(start, end)` for `0 <= start <= end <= text.length`, read from a joined text's pieces. */
export function textSlice(text: string, start: number, end: number): string {
  const known = remembered(text);
  if (!known || end <= start) return text.slice(start, end);
  let slice = "";
  for (let index = pieceAt(known, start); index < known.pieces.length; index++) {
    const pieceStart = known.starts[index] as number;
    if (pieceStart >= end) break;
    const piece = known.pieces[index] as string;
    slice += piece.slice(Math.max(0, start - pieceStart), Math.min(piece.length, end - pieceStart));
  }
  return slice;
}

/** `text.charCodeAt(index)`, read from a joined text's pieces. */
export function textCharCodeAt(text: string, index: number): number {
  const known = remembered(text);
  if (!known || index < 0 || index >= text.length) return text.charCodeAt(index);
  const at = pieceAt(known, index);
  return (known.pieces[at] as string).charCodeAt(index - (known.starts[at] as number));
}

// A long text is shown from its pieces once a text can have been joined here.
cutShownTextWith(textSlice);
