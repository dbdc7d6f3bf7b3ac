import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pathTo, relinkOrphans, type SessionEntry } from "../messages/entries.ts";
import { customEntry as entry } from "../messages/entries.test-support.ts";
import type { EntryRecord } from "../storage/records.ts";
import { indexEntries, indexInSlices, indexNow, type TranscriptIndex } from "./transcript-index.ts";

const records = (entries: readonly SessionEntry[]): EntryRecord[] =>
  entries.map((each, seq) => ({ schema: 1, sessionId: "s", seq, rev: 0, entry: each }));

/** The index as one pass over each step makes it: every id indexed, orphans relinked, the path walked. */
function indexedAtOnce(entries: readonly SessionEntry[], leafId: string | null): TranscriptIndex {
  const byId = new Map(entries.map((each) => [each.id, each]));
  const order = relinkOrphans(entries, byId);
  order.forEach((each, position) => {
    const original = entries[position] as SessionEntry;
    if (each !== original && byId.get(each.id) === original) byId.set(each.id, each);
  });
  const leaf = leafId !== null && byId.has(leafId) ? leafId : (order.at(-1)?.id ?? null);
  return { byId, order, leafId: leaf, path: pathTo(byId, leaf) };
}

describe("indexEntries", () => {
  it("indexes entries as one pass over each step would, duplicate ids, orphans and unknown leaves included", () => {
    const id = fc.constantFrom("a", "b", "c", "d", "e");
    const parent = fc.option(fc.constantFrom("a", "b", "c", "d", "e", "gone"), { nil: null });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, parent), { maxLength: 12 }),
        fc.option(fc.constantFrom("a", "c", "e", "unknown"), { nil: null }),
        (pairs, leafId) => {
          const entries = pairs.map(([own, parentId]) => entry(own, parentId));
          expect(indexNow(records(entries), leafId)).toEqual(indexedAtOnce(entries, leafId));
        },
      ),
    );
  });

  it("gives the page back between slices of a large session, and indexes it the same", async () => {
    const entries = Array.from({ length: 25_000 }, (_, index) =>
      entry(`e${index}`, index === 0 ? null : index === 12_345 ? "damaged" : `e${index - 1}`),
    );
    let pauses = 0;
    const index = await indexInSlices(records(entries), "e24999", async () => void pauses++);
    // Two passes of three slices each, and the path's walk after them.
    expect(pauses).toBeGreaterThanOrEqual(5);
    expect(index).toEqual(indexedAtOnce(entries, "e24999"));
    expect(index.path[12_345]?.parentId).toBe("e12344");
    // A small session yields once, before its path is walked; without a pause it is made at once. A
    // stored leaf of null (as an old record may have) stands for the last entry.
    let steps = 0;
    for (const _ of indexEntries(records(entries.slice(0, 100)), null)) steps++;
    expect(steps).toBe(1);
    expect((await indexInSlices(records(entries.slice(0, 100)), null)).path).toHaveLength(100);
  });
});
