import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeightIndex } from "./height-index.ts";

const items = (count: number) => Array.from({ length: count }, (_, index) => ({ index }));

describe("HeightIndex", () => {
  it("lays out unmeasured items at the fallback height, then at the mean of those measured", () => {
    const index = new HeightIndex<{ index: number }>(100);
    const list = items(10);
    index.setItems(list);
    expect(index.total).toBe(1000);
    expect(index.measure(0, 40)).toBe(-60);
    expect(index.measure(1, 60)).toBe(-40);
    expect(index.offsetOf(2)).toBe(100);
    // The estimate moves to the mean (50) for items laid out from the next change of the list on.
    index.setItems([...list, ...items(2)]);
    expect(index.estimate).toBe(50);
    expect(index.offsetOf(12)).toBe(40 + 60 + 8 * 100 + 2 * 50);
  });

  it("finds the items in a band of the scroll area, with overscan", () => {
    const index = new HeightIndex<{ index: number }>(100);
    index.setItems(items(1000));
    expect(index.range(0, 300, 0)).toEqual({ start: 0, end: 3 });
    expect(index.range(5_050, 5_350, 100)).toEqual({ start: 49, end: 55 });
    expect(index.range(1e9, 1e9 + 100, 0)).toEqual({ start: 999, end: 1000 });
    expect(index.indexAt(-5)).toBe(0);
  });

  it("keeps the heights of items that stay, by identity, when the list grows or is replaced", () => {
    const index = new HeightIndex<{ index: number }>(100);
    const list = items(5);
    index.setItems(list);
    index.measure(2, 10);
    index.setItems([...list, ...items(3)]);
    expect(index.heightOf(2)).toBe(10);
    // A new list holding the same item elsewhere (another branch) still knows it.
    const other = [list[2] as { index: number }, ...items(2)];
    index.setItems(other);
    expect(index.heightOf(0)).toBe(10);
    expect(index.offsetOf(1)).toBe(10);
  });

  it("keeps heights by the key it is given, when the list makes its items anew around the same keys", () => {
    const messages = Array.from({ length: 6 }, (_, at) => ({ text: `m${at}` }));
    const wrap = (from: number) => messages.slice(from).map((message) => ({ message }));
    const index = new HeightIndex<{ message: { text: string } }>(100, (item) => item.message);
    index.setItems(wrap(0));
    index.measure(3, 30);
    index.measure(5, 50);
    // New items for the same messages (a layout made again): nothing is lost, in place or moved.
    index.setItems(wrap(0));
    expect([index.heightOf(3), index.heightOf(5)]).toEqual([30, 50]);
    index.setItems(wrap(2));
    // The first of these was never measured: the mean of those that were.
    expect([index.heightOf(1), index.heightOf(3), index.heightOf(0)]).toEqual([30, 50, 40]);
    // Without the key, items made anew are unknown: each is given the mean of those measured.
    const byItem = new HeightIndex<{ message: { text: string } }>(100);
    byItem.setItems(wrap(0));
    byItem.measure(3, 30);
    byItem.measure(4, 70);
    byItem.setItems(wrap(0));
    expect([byItem.heightOf(3), byItem.heightOf(4)]).toEqual([50, 50]);
  });

  it("recomputes offsets only below a changed item, and says how far they moved", () => {
    const index = new HeightIndex<{ index: number }>(20);
    index.setItems(items(100_000));
    expect(index.total).toBe(2_000_000);
    expect(index.measure(99_990, 120)).toBe(100);
    expect(index.total).toBe(2_000_100);
    expect(index.offsetOf(99_991)).toBe(99_991 * 20 + 100);
    expect(index.measure(99_990, 120)).toBe(0);
    expect(index.measure(5, Number.NaN)).toBe(0);
  });

  it("records a batch of heights and says how far items wholly above the view moved the view", () => {
    const index = new HeightIndex<{ index: number }>(20);
    index.setItems(items(10));
    // Item 1 (20–40) grows by 10 and stays above the view's top at 100; item 4 (80–100, then 90–115)
    // crosses it; item 7 is below; item 3 keeps its height.
    const batch = [
      { index: 7, height: 50 },
      { index: 1, height: 30 },
      { index: 4, height: 25 },
      { index: 3, height: 20 },
    ];
    expect(index.measureMany(batch, 100)).toEqual({ changed: true, shiftAbove: 10 });
    expect(index.offsetOf(5)).toBe(100 + 10 + 5);
    expect(index.measureMany([{ index: 1, height: 30 }], 100)).toEqual({ changed: false, shiftAbove: 0 });
  });

  it("agrees with recording the batch one item at a time, reading each top after the ones above", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ at: fc.nat(), height: fc.integer({ min: 0, max: 90 }) }), { maxLength: 30 }),
        fc.nat({ max: 2_000 }),
        (initial, batch, viewTop) => {
          const list = items(initial.length);
          const many = new HeightIndex<{ index: number }>(20);
          const single = new HeightIndex<{ index: number }>(20);
          for (const layout of [many, single]) {
            layout.setItems(list);
            initial.forEach((height, at) => layout.measure(at, height));
          }
          // One measurement per item, as a resize observer reports each element once per batch.
          const unique = new Map(batch.map(({ at, height }) => [at % list.length, height]));
          const measurements = [...unique].map(([at, height]) => ({ index: at, height }));
          let shiftAbove = 0;
          let changed = false;
          for (const { index: at, height } of [...measurements].sort((a, b) => a.index - b.index)) {
            const top = single.offsetOf(at);
            const moved = single.measure(at, height);
            if (moved !== 0) changed = true;
            if (moved !== 0 && top + height <= viewTop) shiftAbove += moved;
          }
          expect(many.measureMany(measurements, viewTop)).toEqual({ changed, shiftAbove });
          expect(many.total).toBe(single.total);
        },
      ),
    );
  });

  it("grows with a list that grows an item at a time without copying its heights at every item", () => {
    const real = globalThis.Float64Array;
    let made = 0;
    globalThis.Float64Array = new Proxy(real, {
      construct(target, args: [number]) {
        made++;
        return new target(...args);
      },
    });
    try {
      const index = new HeightIndex<{ index: number }>(20);
      let list: { index: number }[] = [];
      for (let count = 0; count < 1_000; count++) {
        list = [...list, { index: count }];
        index.setItems(list);
        if (count % 100 === 0) index.measure(count, 30);
      }
      // Two arrays (heights and offsets), each grown by half again when full: about 2 × 17 for 1,000 items.
      expect(made).toBeLessThan(40);
      // The first item is measured at 30 as it comes; every later one is laid out at that mean.
      expect(index.total).toBe(1_000 * 30);
    } finally {
      globalThis.Float64Array = real;
    }
  });

  it("lays out any sequence of lists and measurements as an index made afresh for the last list would", () => {
    const pool = items(60);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            from: fc.nat({ max: 59 }),
            length: fc.nat({ max: 60 }),
            measures: fc.array(fc.record({ at: fc.nat(), height: fc.integer({ min: 1, max: 90 }) }), {
              maxLength: 5,
            }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (steps) => {
          const reused = new HeightIndex<{ index: number }>(20);
          const measured = new Map<{ index: number }, number>();
          let list: { index: number }[] = [];
          for (const { from, length, measures } of steps) {
            list = pool.slice(from, from + length);
            reused.setItems(list);
            for (const { at, height } of measures) {
              if (list.length === 0) continue;
              const item = list[at % list.length] as { index: number };
              reused.measure(at % list.length, height);
              measured.set(item, height);
            }
          }
          // Unmeasured items of the last list took the estimate of their own time: compare measured ones only.
          const fresh = new HeightIndex<{ index: number }>(20);
          fresh.setItems(list);
          list.forEach((item, at) => {
            const height = measured.get(item);
            if (height !== undefined) fresh.measure(at, height);
            else fresh.measure(at, reused.heightOf(at));
          });
          // Past the list's end is the estimate: the reused index holds the list's length, no more.
          for (let at = 0; at <= list.length; at++) expect(reused.offsetOf(at)).toBe(fresh.offsetOf(at));
          expect(reused.heightOf(list.length)).toBe(reused.estimate);
        },
      ),
    );
  });
});
