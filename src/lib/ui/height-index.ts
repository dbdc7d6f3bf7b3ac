/**
 * Where each item of a long list of unequal heights lies, for rendering only the items in view: heights
 * measured once rendered, an estimate (the mean of those measured) for the rest, and the offset of every
 * item as prefix sums, so finding the items at a scroll position is a binary search. Heights are kept by
 * item identity, so they survive items added after or before them.
 */
export class HeightIndex<Item extends object> {
  readonly #measured = new WeakMap<object, number>();
  readonly #fallback: number;
  /** What a height is kept by: the item, or what stays the same when the list makes its items anew. */
  readonly #keyOf: (item: Item) => object;
  #items: readonly Item[] = [];
  /**
   * Each item's height as laid out now: measured, or the estimate at the time the list last changed. Both
   * arrays have room beyond the list's length (see withRoom); only the first `count` (+1) entries mean anything.
   */
  #heights = new Float64Array(0);
  /** offsets[i] is the top of item i; offsets[length] the total height. */
  #offsets = new Float64Array(1);
  /** Offsets from this index on need recomputing. */
  #staleFrom = 0;
  #measuredSum = 0;
  #measuredCount = 0;

  constructor(fallbackHeight: number, keyOf: (item: Item) => object = (item) => item) {
    this.#fallback = fallbackHeight;
    this.#keyOf = keyOf;
  }

  /** The list changed (items added, removed or replaced). */
  setItems(items: readonly Item[]): void {
    if (items === this.#items) return;
    const previous = this.#items;
    this.#items = items;
    const count = items.length;
    // Items kept in place (a list that grew at its end) keep their heights without a lookup.
    const keyOf = this.#keyOf;
    let kept = 0;
    while (
      kept < count &&
      kept < previous.length &&
      keyOf(previous[kept] as Item) === keyOf(items[kept] as Item)
    )
      kept++;
    this.#heights = withRoom(this.#heights, count, kept);
    this.#offsets = withRoom(this.#offsets, count + 1, kept + 1);
    const estimate = this.estimate;
    for (let index = kept; index < count; index++)
      this.#heights[index] = this.#measured.get(keyOf(items[index] as Item)) ?? estimate;
    this.#staleFrom = Math.min(this.#staleFrom, kept);
  }

  /** The height an unmeasured item is taken to have: the mean of those measured. */
  get estimate(): number {
    return this.#measuredCount > 0 ? this.#measuredSum / this.#measuredCount : this.#fallback;
  }

  heightOf(index: number): number {
    return (index < this.#items.length ? this.#heights[index] : undefined) ?? this.estimate;
  }

  /**
   * Record an item's rendered height. Returns how much the items below it moved (0 when nothing changed),
   * so that a reader looking below it can be kept where they were.
   */
  measure(index: number, height: number): number {
    const found = this.#items[index];
    if (!found || !(height >= 0)) return 0;
    const item = this.#keyOf(found);
    const before = this.#heights[index] ?? 0;
    const known = this.#measured.get(item);
    if (known === undefined) this.#measuredCount++;
    else this.#measuredSum -= known;
    this.#measuredSum += height;
    this.#measured.set(item, height);
    if (before === height) return 0;
    this.#heights[index] = height;
    this.#staleFrom = Math.min(this.#staleFrom, index);
    return height - before;
  }

  /**
   * Record the heights of several rendered items at once (a resize observer's batch). Returns whether any
   * changed, and how far the items at `viewTop` moved because items wholly above it changed height. Every
   * item's top is read before any height is recorded, then moved by the changes above it in the batch: a
   * recorded height makes the offsets below it stale, and reading the next item's top from them again would
   * walk the rest of the list once per item (the first batch of a 100,000-item list took a tenth of a second).
   */
  measureMany(
    measurements: readonly { index: number; height: number }[],
    viewTop: number,
  ): { changed: boolean; shiftAbove: number } {
    const byIndex = [...measurements].sort((a, b) => a.index - b.index);
    const tops = byIndex.map(({ index }) => this.offsetOf(index));
    let movedAbove = 0;
    let shiftAbove = 0;
    let changed = false;
    byIndex.forEach(({ index, height }, order) => {
      const top = (tops[order] as number) + movedAbove;
      const moved = this.measure(index, height);
      if (moved === 0) return;
      changed = true;
      movedAbove += moved;
      if (top + height <= viewTop) shiftAbove += moved;
    });
    return { changed, shiftAbove };
  }

  offsetOf(index: number): number {
    const offsets = this.#current();
    return offsets[Math.max(0, Math.min(index, this.#items.length))] ?? 0;
  }

  get total(): number {
    return this.offsetOf(this.#items.length);
  }

  /** The index of the item at `y` (the last one when `y` is past the end). */
  indexAt(y: number): number {
    const offsets = this.#current();
    const count = this.#items.length;
    if (count === 0) return 0;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((offsets[middle] ?? 0) <= y) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The items overlapping [top, bottom), widened by `overscan` pixels each way: a half-open range. */
  range(top: number, bottom: number, overscan: number): { start: number; end: number } {
    const count = this.#items.length;
    if (count === 0) return { start: 0, end: 0 };
    const start = this.indexAt(Math.max(0, top - overscan));
    // The band ends before `bottom`: an item starting exactly there is not in it.
    const end = Math.min(count, this.indexAt(Math.max(top, bottom + overscan - 1e-6)) + 1);
    return { start, end };
  }

  #current(): Float64Array {
    const count = this.#items.length;
    if (this.#staleFrom >= count + 1) return this.#offsets;
    let index = Math.min(this.#staleFrom, count);
    let top = index === 0 ? 0 : (this.#offsets[index - 1] ?? 0) + (this.#heights[index - 1] ?? 0);
    for (; index < count; index++) {
      this.#offsets[index] = top;
      top += this.#heights[index] ?? 0;
    }
    this.#offsets[count] = top;
    this.#staleFrom = count + 1;
    return this.#offsets;
  }
}

/**
 * `array` if it holds `length` values, else a larger one holding its first `keep`. A list that grows an item
 * at a time (every message of a run) then reallocates now and then instead of at every item: at 100,000
 * items each copy is a large allocation, and a send made two of them before its reply.
 */
function withRoom(array: Float64Array<ArrayBuffer>, length: number, keep: number): Float64Array<ArrayBuffer> {
  // A list much shorter than the room it had (another session, a branch) gives the memory back.
  if (length <= array.length && length * 4 >= array.length) return array;
  const next = new Float64Array(length > array.length ? length + (length >> 1) : length);
  next.set(array.subarray(0, keep));
  return next;
}
