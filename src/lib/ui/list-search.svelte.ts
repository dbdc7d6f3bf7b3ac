import { untrack } from "svelte";
import {
  compileQuery,
  matchPosition,
  scanSlice,
  stepMatch,
  type ScanProgress,
  type SearchQuery,
} from "./text-search.ts";
import { yieldToPage } from "./yield-to-page.ts";

/** How long one slice of a scan may hold the page before the rest waits for the next task. */
const SLICE_MS = 8;

/** The rows a search reads: how many, and the searchable text of each (or texts: one holding the query matches). */
export interface SearchSource {
  readonly count: number;
  readonly textOf: (index: number) => string | readonly string[];
}

/**
 * A search in one list: the typed query, the rows that match and the one gone to. The rows are read in
 * slices of a few milliseconds, each slice in its own task, so typing in a list of 100,000 rows never
 * freezes the page; the first matches are there after the first slice. The next slice follows at once
 * (a message to the page, not a timer: nested timers wait at least 4 ms, a third of each slice idle). A
 * new query or new rows start a new scan, and the one running is dropped.
 */
export class ListSearch {
  #typed = $state("");
  readonly #query = $derived(compileQuery(this.#typed));
  #matches = $state.raw<readonly number[]>([]);
  #scanning = $state(false);
  /** The row of the match gone to; -1 before any. */
  #current = $state(-1);
  #source: SearchSource = { count: 0, textOf: () => "" };
  #generation = 0;
  #settled: (() => void)[] = [];

  get typed(): string {
    return this.#typed;
  }

  /** The compiled query; undefined while nothing is typed. */
  get query(): SearchQuery | undefined {
    return this.#query;
  }

  /** The rows that match, in order (so far, while scanning). */
  get matches(): readonly number[] {
    return this.#matches;
  }

  get scanning(): boolean {
    return this.#scanning;
  }

  /** The row of the match gone to with next or previous; -1 before any. */
  get current(): number {
    return this.#current;
  }

  /** What the search box says: how many matches, which one is current, and whether it is still looking. */
  readonly status: string = $derived.by(() => {
    const query = this.#query;
    if (!query) return "";
    const total = this.#matches.length;
    const cut = query.cut ? ` (query cut to ${query.text.length.toLocaleString("en")} characters)` : "";
    if (this.#scanning) return `${total.toLocaleString("en")} found so far…${cut}`;
    if (total === 0) return `No matches${cut}`;
    const position = matchPosition(this.#matches, this.#current);
    const of = total.toLocaleString("en");
    if (position < 0) return `${of} ${total === 1 ? "match" : "matches"}${cut}`;
    return `${(position + 1).toLocaleString("en")} of ${of}${cut}`;
  });

  /** Whether a row matches (a binary search in the matches). */
  isMatch(row: number): boolean {
    return matchPosition(this.#matches, row) >= 0;
  }

  setTyped(typed: string): void {
    this.#typed = typed;
    this.#current = -1;
    this.#scan();
  }

  /** The rows to search changed (the list grew, another list is shown): they are read again. */
  setSource(source: SearchSource): void {
    this.#source = source;
    this.#scan();
  }

  /**
   * Go to the next match after `from` (the selected row, -1 when none: then after the match gone to, or
   * from the top), wrapping around; returns its row, or -1 when nothing matches.
   */
  next(from = -1): number {
    return this.#step(1, from);
  }

  /** Go to the match before `from` (or the match gone to, or from the end), wrapping around. */
  previous(from = -1): number {
    return this.#step(-1, from);
  }

  clear(): void {
    this.setTyped("");
  }

  /** Resolves when the scan running now (if any) has read every row; for callers that wait for the count. */
  settled(): Promise<void> {
    if (!untrack(() => this.#scanning)) return Promise.resolve();
    return new Promise((resolve) => this.#settled.push(resolve));
  }

  /** Stop a scan that is running (the list is gone). */
  dispose(): void {
    this.#generation += 1;
    this.#finish();
  }

  #step(direction: 1 | -1, from: number): number {
    const matches = untrack(() => this.#matches);
    const current = untrack(() => this.#current);
    const edge = direction === 1 ? -1 : Number.MAX_SAFE_INTEGER;
    const position = stepMatch(matches, from >= 0 ? from : current >= 0 ? current : edge, direction);
    const row = position >= 0 ? (matches[position] ?? -1) : -1;
    this.#current = row;
    return row;
  }

  #scan(): void {
    const generation = ++this.#generation;
    const query = untrack(() => this.#query);
    const current = untrack(() => this.#current);
    const { count, textOf } = this.#source;
    if (!query || count === 0) {
      this.#matches = [];
      this.#scanning = false;
      this.#finish();
      return;
    }
    const progress: ScanProgress = { matches: [], next: 0 };
    const slice = (): void => {
      if (generation !== this.#generation) return;
      const deadline = performance.now() + SLICE_MS;
      const done = scanSlice(query, count, textOf, progress, () => performance.now() >= deadline);
      if (progress.matches.length !== untrack(() => this.#matches.length) || done)
        this.#matches = progress.matches.slice();
      this.#scanning = !done;
      if (!done) {
        void yieldToPage().then(slice);
        return;
      }
      // The match gone to stays current when the rows are read again and it still matches.
      if (current >= 0 && matchPosition(progress.matches, current) < 0) this.#current = -1;
      this.#finish();
    };
    slice();
  }

  #finish(): void {
    const waiting = this.#settled;
    this.#settled = [];
    waiting.forEach((resolve) => resolve());
  }
}
