/**
 * `JSON.stringify(value)` for a value holding very long strings, made a slice at a time. A message may hold
 * a text of tens of megabytes (an imported session's one huge line, a tool's enormous output); serializing
 * it whole is one task of hundreds of milliseconds on the page's thread (a message of 30 MB: 266 ms in
 * Chromium, once the file was imported and the next request's JSON was prepared while idle). Here the value
 * is serialized with its long strings left out (cheap), and each long string
 * is escaped a slice at a time, with a yield between slices, so that its driver can give the thread back.
 *
 * The pieces joined are byte for byte `JSON.stringify(value)`: escaping is character by character, so the
 * slices' escapes joined are the whole string's escape, provided no slice ends between the two halves of a
 * surrogate pair (a pair split would be escaped as two lone surrogates).
 */

import { textCharCodeAt, textSlice } from "../ui/joined-text.ts";

export interface SliceOptions {
  /** A string at least this long is escaped in slices; the rest of the value is serialized at once. */
  longAt: number;
  /** How many characters of a long string are escaped between two yields. */
  sliceChars: number;
  /** What marks a long string's place in the value's JSON while it is made: random unless given. */
  marker?: string;
}

export const DEFAULT_SLICES: SliceOptions = { longAt: 256 * 1024, sliceChars: 256 * 1024 };

/** How many values `holdsLongString` looks at before it gives up (a value that refers to itself never ends). */
const LOOK_LIMIT = 1_000_000;

/**
 * Whether `value` holds, anywhere inside it, a string at least `longAt` characters long. Called for every
 * message serialized, so it allocates nothing beyond its stack of values to look at; a value that refers to
 * itself (which JSON.stringify rejects anyway) is given up on after `LOOK_LIMIT` looks.
 */
export function holdsLongString(value: unknown, longAt: number): boolean {
  const pending: unknown[] = [value];
  for (let looks = 0; pending.length > 0 && looks < LOOK_LIMIT; looks++) {
    const next = pending.pop();
    if (typeof next === "string") {
      if (next.length >= longAt) return true;
    } else if (typeof next === "object" && next !== null) {
      if (Array.isArray(next)) for (const inner of next) pending.push(inner);
      else for (const key in next) pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** Marks a long string's place in the value's JSON: unlike anything a value holds, and checked to be so. */
const randomMarker = `\u0000long-${Math.random().toString(36).slice(2)}-`;

/**
 * The JSON of `value` as pieces whose concatenation is `JSON.stringify(value)` (undefined where that is),
 * yielding after each slice of a long string.
 */
export function* jsonInSlices(
  value: unknown,
  { longAt, sliceChars, marker: nonce = randomMarker }: SliceOptions = DEFAULT_SLICES,
): Generator<void, string[] | undefined> {
  if (!holdsLongString(value, longAt)) {
    const json = JSON.stringify(value) as string | undefined;
    return json === undefined ? undefined : [json];
  }
  const long: string[] = [];
  const skeleton = JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner !== "string" || inner.length < longAt) return inner;
    long.push(inner);
    return `${nonce}${long.length - 1}`;
  }) as string | undefined;
  if (skeleton === undefined) return undefined;
  // The marker as it appears in JSON (its NUL escaped); should the value itself hold it, it cannot be told
  // from a long string's place, and the value is serialized whole instead.
  const marker = JSON.stringify(nonce).slice(1, -1);
  if (skeleton.split(marker).length - 1 !== long.length) return [JSON.stringify(value)];
  const pieces: string[] = [];
  let from = 0;
  for (const [index, text] of long.entries()) {
    const placeholder = JSON.stringify(`${nonce}${index}`);
    const at = skeleton.indexOf(placeholder, from);
    pieces.push(`${skeleton.slice(from, at)}"`);
    for (let start = 0; start < text.length;) {
      let end = Math.min(start + sliceChars, text.length);
      // Never between a high surrogate and the low one after it.
      // Read from the text's pieces when it was joined from them (an imported text): sliced whole, it
      // would be made one flat string first, a task of 130 ms or more at 30 MB.
      if (
        end < text.length &&
        isHighSurrogate(textCharCodeAt(text, end - 1)) &&
        isLowSurrogate(textCharCodeAt(text, end))
      )
        end++;
      pieces.push(JSON.stringify(textSlice(text, start, end)).slice(1, -1));
      start = end;
      yield;
    }
    pieces.push('"');
    from = at + placeholder.length;
  }
  pieces.push(skeleton.slice(from));
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
