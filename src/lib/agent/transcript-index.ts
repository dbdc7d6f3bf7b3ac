import { pathTo, relinkedOrphan, type SessionEntry } from "../messages/entries.ts";
import type { EntryRecord } from "../storage/records.ts";
import { startsWith } from "../../shared/starts-with.ts";
import type { Yield } from "./yield-to-page.ts";

/** A stored session's entries as its transcript keeps them. */
export interface TranscriptIndex {
  /** Each entry by its id, the last of an id winning (as pi's session manager indexes them). */
  readonly byId: Map<string, SessionEntry>;
  /** The entries in order of creation, orphans relinked (`relinkOrphans`). */
  readonly order: SessionEntry[];
  /** The leaf: the one stored when it is among the entries, else the last entry. */
  readonly leafId: string | null;
  /** The entries from the root to the leaf. */
  readonly path: SessionEntry[];
}

/** How many entries each pass indexes between two yields. */
const ENTRIES_PER_SLICE = 10_000;

/**
 * Index stored entries for a transcript, yielding every `ENTRIES_PER_SLICE` entries of each pass: indexing
 * 100,000 entries in one go (their ids hashed into a map, orphans relinked against it, the path walked)
 * was a task of about 70 ms of the one that made the session.
 */
export function* indexEntries(
  records: readonly EntryRecord[],
  leafId: string | null,
): Generator<void, TranscriptIndex> {
  const byId = new Map<string, SessionEntry>();
  for (let index = 0; index < records.length; index++) {
    if (index > 0 && index % ENTRIES_PER_SLICE === 0) yield;
    const entry = (records[index] as EntryRecord).entry;
    byId.set(entry.id, entry);
  }
  const order = new Array<SessionEntry>(records.length);
  let previous: string | null = null;
  for (let index = 0; index < records.length; index++) {
    if (index > 0 && index % ENTRIES_PER_SLICE === 0) yield;
    const entry = (records[index] as EntryRecord).entry;
    const relinked = relinkedOrphan(entry, previous, byId);
    order[index] = relinked;
    previous = entry.id;
    // A relinked orphan replaces its stored entry, unless a later entry of the same id stands for that id.
    if (relinked !== entry && byId.get(entry.id) === entry) byId.set(entry.id, relinked);
  }
  yield;
  const leaf = leafId !== null && byId.has(leafId) ? leafId : (order.at(-1)?.id ?? null);
  const path = pathTo(byId, leaf);
  // A session without branches has a path of every entry in order: one array serves both, here and as
  // the transcript appends to it (it keeps them shared).
  const pathIsOrder = path.length === order.length && startsWith(order, path);
  return { byId, order, leafId: leaf, path: pathIsOrder ? order : path };
}

/** The index made at once. */
export function indexNow(records: readonly EntryRecord[], leafId: string | null): TranscriptIndex {
  const work = indexEntries(records, leafId);
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** The index made a slice at a time, with `pause` between slices (at once without one). */
export async function indexInSlices(
  records: readonly EntryRecord[],
  leafId: string | null,
  pause?: Yield,
): Promise<TranscriptIndex> {
  if (!pause) return indexNow(records, leafId);
  const work = indexEntries(records, leafId);
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pause();
  }
}
