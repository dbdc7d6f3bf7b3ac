import {
  CHILDREN_PAGE,
  ROOT_ID,
  findMatches,
  openToDepth,
  revealPath,
  valueAt,
  visibleRows,
  type JsonValue,
  type Match,
  type Segment,
  type TreeRow,
} from "./json-tree.ts";

/** Levels open when a tree is first shown: the root's children and theirs, as far as the row budget allows. */
export const DEFAULT_OPEN_DEPTH = 2;

/**
 * One JSON tree's view state: which nodes are open, how many children each shows, the selected node, and the
 * search with its current match. The rows and the matches are derived from these; the value never changes.
 */
export class JsonTreeState {
  readonly #value: JsonValue;
  #open = $state.raw<ReadonlySet<string>>(new Set());
  #shown = $state.raw<ReadonlyMap<string, number>>(new Map());
  #selected = $state(ROOT_ID);
  #query = $state("");
  #current = $state(0);

  readonly #rows = $derived.by(() => visibleRows(this.#value, { open: this.#open, shown: this.#shown }));
  readonly #search = $derived.by(() => findMatches(this.#value, this.#query));
  readonly #matchIds = $derived(new Set(this.#search.matches.map((match) => match.id)));

  constructor(value: JsonValue) {
    this.#value = value;
    this.#open = openToDepth(value, DEFAULT_OPEN_DEPTH);
  }

  get rows(): readonly TreeRow[] {
    return this.#rows;
  }

  get selected(): string {
    return this.#selected;
  }

  get selectedSegments(): readonly Segment[] {
    const row = this.#rows.find((candidate) => candidate.kind === "node" && candidate.id === this.#selected);
    return row?.kind === "node" ? row.segments : [];
  }

  get query(): string {
    return this.#query;
  }

  get matches(): readonly Match[] {
    return this.#search.matches;
  }

  /** False when the search stopped counting at its limit. */
  get complete(): boolean {
    return this.#search.complete;
  }

  /** Index of the current match, or -1 when nothing matches. */
  get current(): number {
    return this.#search.matches.length === 0 ? -1 : Math.min(this.#current, this.#search.matches.length - 1);
  }

  get currentId(): string | undefined {
    return this.#search.matches[this.current]?.id;
  }

  isMatch(id: string): boolean {
    return this.#matchIds.has(id);
  }

  /** The JSON text of a node, for copying. */
  valueText(segments: readonly Segment[]): string {
    return JSON.stringify(valueAt(this.#value, segments), null, 2) ?? "";
  }

  select(id: string): void {
    this.#selected = id;
  }

  open(id: string): void {
    if (this.#open.has(id)) return;
    this.#open = new Set([...this.#open, id]);
  }

  close(id: string): void {
    if (!this.#open.has(id)) return;
    const open = new Set(this.#open);
    open.delete(id);
    this.#open = open;
  }

  toggle(id: string): void {
    if (this.#open.has(id)) this.close(id);
    else this.open(id);
  }

  showMore(id: string): void {
    const shown = new Map(this.#shown);
    shown.set(id, (shown.get(id) ?? CHILDREN_PAGE) + CHILDREN_PAGE);
    this.#shown = shown;
  }

  expandAll(): void {
    this.#open = openToDepth(this.#value, Infinity);
    this.#shown = new Map();
  }

  collapseAll(): void {
    // The root stays open: a tree of one closed row shows nothing.
    this.#open = new Set([ROOT_ID]);
    this.#shown = new Map();
    this.#selected = ROOT_ID;
  }

  search(query: string): void {
    this.#query = query;
    this.#current = 0;
    this.#revealCurrent();
  }

  next(): void {
    this.#step(1);
  }

  previous(): void {
    this.#step(-1);
  }

  clearSearch(): void {
    this.#query = "";
    this.#current = 0;
  }

  #step(by: number): void {
    const count = this.#search.matches.length;
    if (count === 0) return;
    this.#current = (this.current + by + count) % count;
    this.#revealCurrent();
  }

  /** Opens the folded ancestors of the current match (and pages far enough) and selects it. */
  #revealCurrent(): void {
    const match = this.#search.matches[this.current];
    if (match === undefined) return;
    const view = revealPath(this.#value, match.segments, { open: this.#open, shown: this.#shown });
    this.#open = view.open;
    this.#shown = view.shown;
    this.#selected = match.id;
  }
}
