/**
 * Finding a typed text in the rows of a list: the query, whether a row's text holds it, where, and a scan
 * over many rows done in slices so that a list of 100,000 rows never holds the page for long.
 *
 * The query is literal (regular expression characters are text) and case-insensitive, with Unicode's
 * case folding ("É" finds "é"). It is compiled once into a regular expression of its escaped characters:
 * positions are then those of the original text, which lowercasing both sides would not give (some
 * characters change length when lowercased).
 */

/**
 * The longest query searched: a longer one (a pasted megabyte) is cut to this length. Nobody types more,
 * and compiling and matching a megabyte of pattern against every row would freeze the page.
 */
export const MAX_QUERY_LENGTH = 1_000;

/**
 * How much of one row's text is searched: its first 20,000 characters. A tool result of megabytes would
 * otherwise make every keystroke read megabytes again; what lies past this is not found.
 */
export const MAX_SEARCHED_LENGTH = 20_000;

export interface SearchQuery {
  /** The query as searched (cut to MAX_QUERY_LENGTH). */
  readonly text: string;
  /** Whether the typed query was cut. */
  readonly cut: boolean;
  /** The escaped query, case-insensitive, for `test`. */
  readonly pattern: RegExp;
  /** The same, global, for finding every place in a text. */
  readonly global: RegExp;
}

/** A stretch of a text that matched: [start, end). */
export interface MatchRange {
  readonly start: number;
  readonly end: number;
}

/** A text cut into the pieces a row shows: matched pieces are marked. */
export interface TextPiece {
  readonly text: string;
  readonly match: boolean;
}

// Only the characters that mean something in a pattern are escaped: with the `u` flag any other escape
// ("\-", "\ ") is a syntax error.
const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** The query for a typed text; undefined when there is nothing to search for (empty, or only spaces). */
export function compileQuery(typed: string): SearchQuery | undefined {
  const cut = typed.length > MAX_QUERY_LENGTH;
  const text = cut ? typed.slice(0, MAX_QUERY_LENGTH) : typed;
  if (text.trim() === "") return undefined;
  const source = text.replace(SYNTAX, "\\$&");
  try {
    return { text, cut, pattern: new RegExp(source, "iu"), global: new RegExp(source, "giu") };
  } catch {
    // A lone half of a surrogate pair at the cut, in some engines: searched without Unicode mode.
    return { text, cut, pattern: new RegExp(source, "i"), global: new RegExp(source, "gi") };
  }
}

/** Whether the text holds the query (in its first MAX_SEARCHED_LENGTH characters). */
export function matchesText(query: SearchQuery, text: string): boolean {
  return query.pattern.test(text.length > MAX_SEARCHED_LENGTH ? text.slice(0, MAX_SEARCHED_LENGTH) : text);
}

/** Where the query is in a text, in order, at most `limit` places. */
export function matchRanges(query: SearchQuery, text: string, limit = 100): MatchRange[] {
  const searched = text.length > MAX_SEARCHED_LENGTH ? text.slice(0, MAX_SEARCHED_LENGTH) : text;
  const pattern = query.global;
  pattern.lastIndex = 0;
  const ranges: MatchRange[] = [];
  for (let found = pattern.exec(searched); found && ranges.length < limit; found = pattern.exec(searched)) {
    const end = found.index + found[0].length;
    ranges.push({ start: found.index, end });
    // A match is never empty (the query has a character), but a pattern that could be must still move on.
    if (found[0].length === 0) pattern.lastIndex += 1;
  }
  return ranges;
}

/** The text in pieces, the matches marked; without a query, one unmarked piece. */
export function highlightPieces(text: string, query: SearchQuery | undefined): TextPiece[] {
  if (!query) return [{ text, match: false }];
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const range of matchRanges(query, text)) {
    if (range.start > at) pieces.push({ text: text.slice(at, range.start), match: false });
    pieces.push({ text: text.slice(range.start, range.end), match: true });
    at = range.end;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), match: false });
  return pieces;
}

/**
 * A row's line when it shows a match: the line itself when the match is in it, or else a stretch of the
 * whole text around the first match (a tool result's match past its preview is then seen), "…" where it
 * was cut. `width` is the length of the line a row shows.
 */
export function lineWithMatch(line: string, whole: string, query: SearchQuery, width: number): string {
  if (matchesText(query, line)) return line;
  const [first] = matchRanges(query, whole, 1);
  if (!first) return line;
  const before = Math.max(0, Math.floor((width - (first.end - first.start)) / 3));
  const start = Math.max(0, first.start - before);
  const end = Math.min(whole.length, start + Math.max(width, first.end - first.start));
  const stretch = whole.slice(start, end).replace(/\s+/g, " ");
  return `${start > 0 ? "…" : ""}${stretch}${end < whole.length ? "…" : ""}`;
}

/** Where a scan over many rows stands: the rows that matched so far, and the next row to read. */
export interface ScanProgress {
  readonly matches: number[];
  next: number;
}

/**
 * Read rows from `progress.next` on, adding the ones whose text (or one of whose texts) matches, until
 * every row is read or `stopAt()` says the slice is over (it is asked every few rows, so one slice stays
 * short). Returns whether every row has been read.
 */
export function scanSlice(
  query: SearchQuery,
  count: number,
  textOf: (index: number) => string | readonly string[],
  progress: ScanProgress,
  stopAt: () => boolean,
): boolean {
  while (progress.next < count) {
    const index = progress.next++;
    const text = textOf(index);
    if (typeof text === "string" ? matchesText(query, text) : text.some((one) => matchesText(query, one)))
      progress.matches.push(index);
    if (index % 64 === 63 && stopAt()) return progress.next >= count;
  }
  return true;
}

/**
 * The match to go to next from a row: the first match after it (or the first of all, from no row),
 * wrapping around at the end; backwards, the last before it. -1 when there are no matches.
 */
export function stepMatch(matches: readonly number[], fromRow: number, direction: 1 | -1): number {
  if (matches.length === 0) return -1;
  if (direction === 1) {
    const after = firstAbove(matches, fromRow);
    return after < matches.length ? after : 0;
  }
  const before = firstAbove(matches, fromRow - 1) - 1;
  return before >= 0 ? before : matches.length - 1;
}

/** The position of a row among the matches, or -1 (the matches are in ascending order). */
export function matchPosition(matches: readonly number[], row: number): number {
  const at = firstAbove(matches, row - 1);
  return matches[at] === row ? at : -1;
}

/** The position of the first match greater than `row` (binary search over ascending rows). */
function firstAbove(matches: readonly number[], row: number): number {
  let low = 0;
  let high = matches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((matches[middle] ?? Infinity) > row) high = middle;
    else low = middle + 1;
  }
  return low;
}
