import { joinPieces } from "../ui/joined-text.ts";

/**
 * Long texts sent from the import worker to the page in pieces. A message posted between threads is copied
 * into the receiving page in one task: an entry holding a text of 30 MB (a session file's one huge line)
 * made one task of 125 ms or more on the page (Chromium trace, 3 December), however the entries around
 * it were sliced. The worker takes such texts out of the items it sends (leaving "" in their place) and
 * sends each in pieces of its own, each a small task to receive; the page joins a text's pieces (a rope
 * of them that remembers them, `joinPieces`: the page shows and serializes it from its pieces, never as
 * one flat string) and puts it back where it was.
 */

/** A string this long or longer is sent apart from its item, in pieces. */
export const LONG_TEXT_CHARS = 1024 * 1024;
/** Characters per piece of a long text. */
export const TEXT_PIECE_CHARS = 1024 * 1024;

/** Where a text was taken from: its item's place in the slice, the keys down to it, its count of pieces. */
export interface TakenText {
  item: number;
  path: (string | number)[];
  pieces: number;
}

/** Items whose long texts were taken out, with where each came from and all their pieces, in order. */
export interface ItemsWithoutLongTexts<Item> {
  items: Item[];
  taken: TakenText[];
  pieces: string[];
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Set a property as the object's own: a key "__proto__" (JSON.parse makes it an own key) stays a key. */
function setOwn(holder: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The value with every string at least `longAt` long replaced by "", copying only the arrays and plain
 * objects on the way to one (the value itself is left as it was: the worker still stores it whole); what
 * was taken is added to `found` with its path.
 */
function without(
  value: unknown,
  longAt: number,
  path: (string | number)[],
  found: { path: (string | number)[]; text: string }[],
): unknown {
  if (typeof value === "string") {
    if (value.length < longAt) return value;
    found.push({ path: [...path], text: value });
    return "";
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const inner = without(value[index], longAt, path, found);
      path.pop();
      if (inner !== value[index]) (copy ??= [...value])[index] = inner;
    }
    return copy ?? value;
  }
  // Anything else (a Blob, a typed array) is sent as it is.
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    path.push(key);
    const inner = without(value[key], longAt, path, found);
    path.pop();
    if (inner !== value[key]) setOwn((copy ??= { ...value }), key, inner);
  }
  return copy ?? value;
}

/**
 * The worker's side: `items` (not changed) as they are to be sent, their long texts taken out and cut into
 * pieces of at most `pieceChars` (a surrogate pair is never cut in two).
 */
export function takeLongTexts<Item>(
  items: readonly Item[],
  longAt: number = LONG_TEXT_CHARS,
  pieceChars: number = TEXT_PIECE_CHARS,
): ItemsWithoutLongTexts<Item> {
  const taken: TakenText[] = [];
  const pieces: string[] = [];
  const sent = items.map((item, index) => {
    const found: { path: (string | number)[]; text: string }[] = [];
    const copy = without(item, longAt, [], found) as Item;
    for (const { path, text } of found) {
      const before = pieces.length;
      for (let start = 0; start < text.length;) {
        let end = Math.min(start + pieceChars, text.length);
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
        pieces.push(text.slice(start, end));
        start = end;
      }
      taken.push({ item: index, path, pieces: pieces.length - before });
    }
    return copy;
  });
  return { items: sent, taken, pieces };
}

/**
 * The page's side: each taken text, joined from its pieces (taken in order from `pieces`), put back in the
 * received `items` (the page's own copy, changed in place). Throws when the pieces do not add up, which
 * only a worker out of step with this page could cause.
 */
export function putLongTexts<Item>(
  items: Item[],
  taken: readonly TakenText[],
  pieces: readonly string[],
): void {
  let next = 0;
  for (const { item, path, pieces: count } of taken) {
    if (next + count > pieces.length)
      throw new Error("the import worker sent fewer pieces of text than it said");
    // Joined as a rope that remembers its pieces (`joinPieces`): made one flat string, a text of 30 MB was
    // a task of 130 ms or more on the page, the time fresh memory takes to be written.
    const text = joinPieces(pieces.slice(next, next + count), items[item] as object);
    next += count;
    let holder: unknown = items;
    const keys = [item, ...path];
    for (const key of keys.slice(0, -1)) holder = (holder as Record<string | number, unknown>)[key];
    setOwn(holder as Record<string | number, unknown>, keys.at(-1) as string | number, text);
  }
  if (next !== pieces.length) throw new Error("the import worker sent more pieces of text than it said");
}
