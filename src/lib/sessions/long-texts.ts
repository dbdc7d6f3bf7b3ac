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
/**
 * A string this long or longer (and shorter than a long text) is sent in its slice's pool: one string that
 * holds them all, each put back on the page as a slice of it. Received as texts of their own, a 64 MB file of
 * 10 kB messages filled the page's young generation again and again, and each of its collections copied what
 * had arrived (every text survives): tasks of 50–180 ms in a Chromium experiment, against one of 57 ms or
 * none with a pool. V8 keeps a string of hundreds of kilobytes out of the young generation, and a slice of
 * it as a small object pointing into it (its "sliced strings"): a behaviour of the engine, not a promise,
 * which only the import's speed rests on; the texts are the same either way.
 */
export const POOLED_TEXT_CHARS = 512;
/** At most this many characters in one slice's pool: a text that would make it longer goes in pieces. */
export const POOL_CHARS = 1024 * 1024;

/** Where a text was taken from: its item's place in the slice, the keys down to it, its count of pieces. */
export interface TakenText {
  item: number;
  path: (string | number)[];
  pieces: number;
}

/** Where a pooled text was taken from: its item's place in the slice, the keys down to it, its place in the pool. */
export interface PooledText {
  item: number;
  path: (string | number)[];
  at: number;
  length: number;
}

/**
 * Items whose long texts were taken out, with where each came from and all their pieces, in order; and
 * their texts of some length, taken out into `pool`.
 */
export interface ItemsWithoutLongTexts<Item> {
  items: Item[];
  taken: TakenText[];
  pieces: string[];
  pooled: PooledText[];
  pool: string;
}

/** Where texts go as they are taken out of the items: which are pooled and which sent in pieces. */
interface TextSorter {
  /** Pooled at or over this length, unless the pool is full. */
  poolAt: number;
  /** Sent in pieces at or over this length, or when the pool is full. */
  longAt: number;
  poolChars: number;
  poolLength: number;
  /** Each text taken out, with its place in the pool when it is pooled. */
  found: { path: (string | number)[]; text: string; poolAt: number | undefined }[];
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
 * The value with every string at least `sorter.poolAt` long replaced by "", copying only the arrays and
 * plain objects on the way to one (the value itself is left as it was: the worker still stores it whole);
 * what was taken is added to the sorter's `found` with its path and whether it is pooled.
 */
function without(value: unknown, sorter: TextSorter, path: (string | number)[]): unknown {
  if (typeof value === "string") {
    if (value.length < sorter.poolAt) return value;
    const pooled = value.length < sorter.longAt && sorter.poolLength + value.length <= sorter.poolChars;
    sorter.found.push({ path: [...path], text: value, poolAt: pooled ? sorter.poolLength : undefined });
    if (pooled) sorter.poolLength += value.length;
    return "";
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const inner = without(value[index], sorter, path);
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
    const inner = without(value[key], sorter, path);
    path.pop();
    if (inner !== value[key]) setOwn((copy ??= { ...value }), key, inner);
  }
  return copy ?? value;
}

/**
 * The worker's side: `items` (not changed) as they are to be sent, their long texts taken out and cut into
 * pieces of at most `pieceChars` (a surrogate pair is never cut in two), and their texts of `poolAt`
 * characters or more joined into one pool of at most `poolChars` (those that do not fit go in pieces).
 */
export function takeLongTexts<Item>(
  items: readonly Item[],
  longAt: number = LONG_TEXT_CHARS,
  pieceChars: number = TEXT_PIECE_CHARS,
  poolAt: number = POOLED_TEXT_CHARS,
  poolChars: number = POOL_CHARS,
): ItemsWithoutLongTexts<Item> {
  const taken: TakenText[] = [];
  const pieces: string[] = [];
  const pooled: PooledText[] = [];
  const poolParts: string[] = [];
  const sorter: TextSorter = {
    poolAt: Math.min(poolAt, longAt),
    longAt,
    poolChars,
    poolLength: 0,
    found: [],
  };
  const sent = items.map((item, index) => {
    sorter.found = [];
    const copy = without(item, sorter, []) as Item;
    for (const { path, text, poolAt } of sorter.found) {
      if (poolAt !== undefined) {
        pooled.push({ item: index, path, at: poolAt, length: text.length });
        poolParts.push(text);
        continue;
      }
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
  return { items: sent, taken, pieces, pooled, pool: poolParts.join("") };
}

/** Put `text` back in the received `items` where `item` and `path` say it was. */
function putBack(items: unknown[], item: number, path: readonly (string | number)[], text: string): void {
  let holder: unknown = items;
  const keys = [item, ...path];
  for (const key of keys.slice(0, -1)) holder = (holder as Record<string | number, unknown>)[key];
  setOwn(holder as Record<string | number, unknown>, keys.at(-1) as string | number, text);
}

/**
 * The page's side: each taken text, joined from its pieces (taken in order from `pieces`), and each pooled
 * text, a slice of `pool`, put back in the received `items` (the page's own copy, changed in place). Throws
 * when the pieces or the pool do not add up, which only a worker out of step with this page could cause.
 */
export function putLongTexts<Item>(
  items: Item[],
  taken: readonly TakenText[],
  pieces: readonly string[],
  pooled: readonly PooledText[] = [],
  pool = "",
): void {
  for (const { item, path, at, length } of pooled) {
    if (at + length > pool.length)
      throw new Error("the import worker sent a pool of text shorter than it said");
    putBack(items, item, path, pool.slice(at, at + length));
  }
  let next = 0;
  for (const { item, path, pieces: count } of taken) {
    if (next + count > pieces.length)
      throw new Error("the import worker sent fewer pieces of text than it said");
    // Joined as a rope that remembers its pieces (`joinPieces`): made one flat string, a text of 30 MB was
    // a task of 130 ms or more on the page, the time fresh memory takes to be written.
    const text = joinPieces(pieces.slice(next, next + count), items[item] as object);
    next += count;
    putBack(items, item, path, text);
  }
  if (next !== pieces.length) throw new Error("the import worker sent more pieces of text than it said");
}
