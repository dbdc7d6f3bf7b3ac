import { newEntryId, type SessionEntry, type UnknownEntry } from "../messages/entries.ts";
import { validateEntry } from "../messages/entry-validate.ts";
import { nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { isObject } from "../../shared/is-object.ts";
import { countOf } from "../../shared/count-of.ts";
import { byLine, linesList, placeOf, type ImportProblem } from "./import-problems.ts";

/**
 * Reading the entries of a session file into a sound tree: every entry with an id, a parent that exists,
 * no loops. pi's session manager reads files without checking them (a loop makes it walk forever), so a
 * damaged file is repaired here the way pi would read it wherever pi can read it at all, and every repair
 * is a problem that names its line and entry and says what the import does:
 *
 * - a line that is not an object, or an entry without a type: skipped;
 * - an entry without an id: given one (pi reaches such an entry only as the file's last, where it opens,
 *   but still reads its label or name);
 * - an entry without a parent (no `parentId`, or one that is not an id): a root, as pi reads it;
 * - a value pi's code reads though its types do not allow it (no content, a time that is a number, usage
 *   without a cost, a stop reason or block pi does not know): read as pi reads it, named in the notes
 *   when kept as it is, a problem when changed to what pi reads;
 * - an entry of a known type whose fields are of another kind than pi's types name: kept exactly as it
 *   was, but as an entry this version does not understand (the model does not read it; an export writes
 *   it back unchanged);
 * - an id used twice: the later entry wins, as in pi's index, and the earlier is skipped;
 * - a parent that is not in the file: the entry starts a conversation of its own (a root), with everything
 *   below it, which is how pi reads it;
 * - parents that loop: the loop is cut at its entry that comes first in the file, which becomes a root;
 * - a second root is not damage (pi's `resetLeaf` starts one when the very first message is edited): it is
 *   kept, and named in the notes;
 * - a compaction whose first kept entry is not on its branch: kept; as in pi, the model then reads nothing
 *   from before the summary.
 *
 * Entries of types this version does not know are not problems: they are kept as they were and listed in
 * the notes. The leaf is the last entry kept, pi's rule when it opens a file.
 */

export interface RawEntry {
  line: number;
  /** Where the value is in a JSON document ("entries[3]"); lines name themselves. */
  place?: string;
  value: unknown;
}

export interface TreeRead {
  /** In file order. */
  entries: SessionEntry[];
  /** The last entry kept: where pi continues a file it opens. */
  leafId: string | null;
  problems: ImportProblem[];
  /** What was kept without being understood, one sentence per entry type. */
  notes: string[];
}

interface Read {
  entry: SessionEntry;
  raw: RawEntry;
  /** Not understood: of a type this version does not know (`unknownType`), or of a known type but damaged. */
  unknownType?: string;
}

/** An entry kept exactly as it was read, without being understood. */
function keptAsRead(value: Record<string, unknown>, id: string, parentId: string | null): UnknownEntry {
  return {
    type: "unknown",
    id,
    parentId,
    timestamp: typeof value.timestamp === "string" ? value.timestamp : "",
    original: value,
  };
}

/** The same entry hanging from another parent (an unknown entry's original too, so exports agree). */
function withParent(entry: SessionEntry, parentId: string | null): SessionEntry {
  if (entry.type === "unknown") return { ...entry, parentId, original: { ...entry.original, parentId } };
  return { ...entry, parentId };
}

/**
 * `leafIsLast`: the file keeps no leaf of its own, so the session continues from its last entry (pi's
 * files); a problem on the last line then says where the session continues instead.
 */
export function readSessionTree(
  raws: readonly RawEntry[],
  {
    leafIsLast = true,
    knownIds,
  }: {
    leafIsLast?: boolean;
    /** Entries already read (a live session's earlier ones): parents among them are in the tree. */
    knownIds?: ReadonlySet<string>;
  } = {},
): TreeRead {
  const problems: ImportProblem[] = [];
  const report = (raw: RawEntry, message: string, entryId?: string) =>
    problems.push({
      line: raw.line,
      ...(raw.place !== undefined ? { place: raw.place } : {}),
      ...(entryId !== undefined ? { entryId } : {}),
      message,
    });

  // 1. Each value to an entry, or a reason it cannot be one.
  const taken = new Set<string>();
  for (const raw of raws)
    if (isObject(raw.value) && typeof raw.value.id === "string") taken.add(raw.value.id);
  const read: Read[] = [];
  /** Values kept as pi reads them though its types do not allow them: one sentence, its places. */
  const readAs = new Map<string, Read[]>();
  for (const raw of raws) {
    if (!isObject(raw.value)) {
      report(raw, "not a JSON object; skipped");
      continue;
    }
    let value: Record<string, unknown> = raw.value;
    const type = typeof value.type === "string" && value.type !== "" ? value.type : undefined;
    if (type === undefined) {
      report(raw, "the entry has no type; skipped", typeof value.id === "string" ? value.id : undefined);
      continue;
    }
    // Checked before anything walks the value recursively: validation, storage and display all would.
    if (nestsDeeperThan(value)) {
      report(
        raw,
        `the entry nests ${tooDeepMessage()}; skipped`,
        typeof value.id === "string" ? value.id : undefined,
      );
      continue;
    }
    let id = typeof value.id === "string" && value.id !== "" ? value.id : undefined;
    if (id === undefined) {
      id = newEntryId((candidate) => taken.has(candidate));
      taken.add(id);
      report(
        raw,
        `the ${type} entry has no id; pi reaches it only as the file's last entry, and this import gives it the id ${id}`,
        id,
      );
      value = { ...value, id };
    }
    // pi follows a parent only when parentId is set (truthy): anything else is the start of a conversation.
    const parentId = value.parentId;
    if (parentId !== null && (typeof parentId !== "string" || parentId === "")) {
      report(
        raw,
        `${parentId === undefined ? "it has no parentId" : `its parentId, ${JSON.stringify(parentId)}, is not an entry id`}; it starts a conversation of its own (a root), as pi reads it`,
        id,
      );
      value = { ...value, parentId: null };
    }
    const entryParent = value.parentId as string | null;
    // "unknown" is the playground's own stand-in, never a type a file may claim.
    const validation = type === "unknown" ? undefined : validateEntry(value);
    if (validation === undefined || (validation.ok && validation.unknownType !== undefined)) {
      read.push({ entry: keptAsRead(value, id, entryParent), raw, unknownType: type });
    } else if (validation.ok) {
      const item: Read = { entry: validation.entry, raw };
      read.push(item);
      for (const repair of validation.repairs ?? []) report(raw, repair, id);
      for (const note of validation.readAs ?? []) readAs.set(note, [...(readAs.get(note) ?? []), item]);
    } else {
      read.push({ entry: keptAsRead(value, id, entryParent), raw });
      report(raw, `${validation.reason}; kept as it was, but not understood: the model does not read it`, id);
    }
  }

  // 2. An id used twice: pi's index keeps the later entry.
  const lastWithId = new Map<string, Read>();
  for (const item of read) lastWithId.set(item.entry.id, item);
  const kept = read.filter((item) => {
    const later = lastWithId.get(item.entry.id);
    if (later === item || later === undefined) return true;
    report(
      item.raw,
      `the same id is used again on ${placeOf(later.raw)}; pi reads the later entry, and so does this import: this one is skipped`,
      item.entry.id,
    );
    return false;
  });

  const byId = new Map<string, Read>(kept.map((item) => [item.entry.id, item]));
  const order = new Map<string, number>(kept.map((item, index) => [item.entry.id, index]));

  // 3. Roots: one is the rule; more are named (pi makes them, but so does a file put together by hand).
  const notes: string[] = [];
  const roots = kept.filter((item) => item.entry.parentId === null);
  const firstRoot = roots[0];
  for (const item of roots.slice(1)) {
    if (!firstRoot) break;
    notes.push(
      `${placeOf({ ...item.raw, entryId: item.entry.id })}: a second root (the first is entry ${firstRoot.entry.id}, ${placeOf(firstRoot.raw)}), a conversation started over from nothing, as pi starts one when the first message is edited; kept as it is`,
    );
  }

  // 4. Parents that are not in the file: the entry becomes a root, as pi's path ends there.
  const orphans: { item: Read; missing: string }[] = [];
  for (const item of kept) {
    const parentId = item.entry.parentId;
    if (parentId !== null && !byId.has(parentId) && !knownIds?.has(parentId)) {
      orphans.push({ item, missing: parentId });
      item.entry = withParent(item.entry, null);
    }
  }

  // 5. Parents that loop: cut each loop at its entry that comes first in the file.
  const loops: { item: Read; loop: string[] }[] = [];
  const settled = new Set<string>();
  for (const start of kept) {
    const walk: string[] = [];
    const walking = new Set<string>();
    let id: string | null = start.entry.id;
    while (id !== null && !settled.has(id) && !walking.has(id)) {
      walking.add(id);
      walk.push(id);
      id = byId.get(id)?.entry.parentId ?? null;
    }
    if (id !== null && walking.has(id)) {
      const loop = walk.slice(walk.indexOf(id));
      const cutId = loop.reduce((first, candidate) =>
        (order.get(candidate) ?? 0) < (order.get(first) ?? 0) ? candidate : first,
      );
      const cut = byId.get(cutId);
      if (cut) {
        const from = loop.indexOf(cutId);
        loops.push({ item: cut, loop: [...loop.slice(from), ...loop.slice(0, from), cutId] });
        cut.entry = withParent(cut.entry, null);
      }
    }
    for (const walked of walk) settled.add(walked);
  }

  // The tree is sound from here on: children, for saying how much hangs below a repaired entry.
  const children = new Map<string, string[]>();
  for (const item of kept) {
    const parentId = item.entry.parentId;
    if (parentId !== null) children.set(parentId, [...(children.get(parentId) ?? []), item.entry.id]);
  }
  const below = (id: string): number => {
    let count = 0;
    const stack = [...(children.get(id) ?? [])];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      count++;
      stack.push(...(children.get(next) ?? []));
    }
    return count;
  };
  const andBelow = (id: string) => {
    const count = below(id);
    return count === 0 ? "it" : `it and the ${countOf(count, "entry", "entries")} below it`;
  };
  for (const { item, missing } of orphans) {
    report(
      item.raw,
      `its parent ${missing} is not in the file; ${andBelow(item.entry.id)} are kept as a conversation of their own (a new root), as pi reads them`,
      item.entry.id,
    );
  }
  for (const { item, loop } of loops) {
    report(
      item.raw,
      `its parents loop back to it (${loop.join(" → ")}), which pi would follow forever; the loop is cut here, and ${andBelow(item.entry.id)} start a conversation of their own`,
      item.entry.id,
    );
  }

  // 6. A compaction keeps its tail only from an entry on its own branch.
  for (const item of kept) {
    const entry = item.entry;
    if (entry.type !== "compaction" || entry.firstKeptEntryId === entry.id) continue;
    let onBranch = false;
    for (let id = entry.parentId; id !== null && !onBranch; id = byId.get(id)?.entry.parentId ?? null) {
      onBranch = id === entry.firstKeptEntryId;
    }
    if (onBranch) continue;
    const where = byId.has(entry.firstKeptEntryId)
      ? "is not on the compaction's branch"
      : "is not in the file";
    report(
      item.raw,
      `its first kept entry, ${entry.firstKeptEntryId}, ${where}; kept as it is: as in pi, the model reads the summary and nothing from before it`,
      entry.id,
    );
  }

  // 7. The leaf: the last entry kept. If the file's last entry was not, say where the session continues.
  const leaf = kept.at(-1);
  const lastRaw = raws.at(-1);
  if (leafIsLast && leaf && lastRaw && leaf.raw !== lastRaw) {
    const lastProblem = problems.findLast((problem) => problem.line === lastRaw.line);
    if (lastProblem)
      lastProblem.message += `; it was the file's last entry, so the session continues from entry ${leaf.entry.id} (${placeOf(leaf.raw)}), the last one kept`;
  }

  return {
    entries: kept.map((item) => item.entry),
    leafId: leaf?.entry.id ?? null,
    problems: problems.sort(byLine),
    notes: [...notes, ...unknownNotes(kept), ...readAsNotes(readAs, new Set(kept))],
  };
}

/** "read as pi reads it: usage has no cost … (lines 4 and 9: entries a1, b2)", one note per sentence. */
function readAsNotes(readAs: ReadonlyMap<string, Read[]>, kept: ReadonlySet<Read>): string[] {
  return [...readAs].flatMap(([note, all]) => {
    const items = all.filter((item) => kept.has(item));
    if (items.length === 0) return [];
    const where = items.every((item) => item.raw.place === undefined)
      ? linesList(items.map((item) => item.raw.line))
      : items.map((item) => item.raw.place ?? `line ${item.raw.line}`).join(", ");
    const ids = items.map((item) => item.entry.id);
    return [
      `read as pi reads it: ${note} (${where}: ${ids.length === 1 ? "entry" : "entries"} ${ids.join(", ")})`,
    ];
  });
}

/** "kept, not understood: 2 entries of type "bookmark" (lines 4 and 9: entries a1, b2); …" */
function unknownNotes(kept: readonly Read[]): string[] {
  const byType = new Map<string, Read[]>();
  for (const item of kept) {
    if (item.unknownType === undefined) continue;
    byType.set(item.unknownType, [...(byType.get(item.unknownType) ?? []), item]);
  }
  return [...byType].map(([type, items]) => {
    const ids = items.map((item) => item.entry.id);
    const where = items.every((item) => item.raw.place === undefined)
      ? linesList(items.map((item) => item.raw.line))
      : items.map((item) => item.raw.place ?? `line ${item.raw.line}`).join(", ");
    const one = ids.length === 1;
    return `kept, not understood: ${countOf(items.length, "entry", "entries")} of type "${type}" (${where}: ${one ? "entry" : "entries"} ${ids.join(", ")}); the model does not read ${one ? "it" : "them"}, and an export writes ${one ? "it" : "them"} back as ${one ? "it was" : "they were"}`;
  });
}
