import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionEntry } from "../messages/entries.ts";
import { kindOf } from "../messages/kinds/index.ts";
import { factOf } from "./session-projection.ts";

/**
 * The session tree as people look at it: its branches, each named by what was asked on it, and a compact
 * outline (like pi's `/tree`) that shows where branches part and where they end without listing every
 * entry of the long straight runs between.
 */
export interface SessionTree {
  byId: ReadonlyMap<string, SessionEntry>;
  /** Children of each entry id (and of the root, keyed ""), in order of creation. */
  children: ReadonlyMap<string, readonly SessionEntry[]>;
  /** The latest label of each entry. */
  labels: ReadonlyMap<string, string>;
}

export function buildTree(entries: readonly SessionEntry[]): SessionTree {
  const byId = new Map<string, SessionEntry>();
  const children = new Map<string, SessionEntry[]>();
  const labels = new Map<string, string>();
  for (const entry of entries) {
    byId.set(entry.id, entry);
    const key = entry.parentId ?? "";
    const list = children.get(key);
    if (list) list.push(entry);
    else children.set(key, [entry]);
    if (entry.type === "label") {
      if (entry.label) labels.set(entry.targetId, entry.label);
      else labels.delete(entry.targetId);
    }
  }
  return { byId, children, labels };
}

const TITLE_LENGTH = 60;

/** A piece of a file shown inside a line (a label, a name, a model id): at most `max` characters. */
export function clipInline(text: string, max = TITLE_LENGTH * 2): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function firstLine(text: string): string {
  // Only the start is shown: a long text is cut before its whitespace is folded.
  const line = text
    .slice(0, TITLE_LENGTH * 4)
    .replace(/\s+/g, " ")
    .trim();
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/**
 * The text a person would recognise an entry by: a label, what was asked or answered, or its kind.
 * `withLabel: false` gives what the entry says even when it carries a label (to show both).
 */
export function entryTitle(tree: SessionTree, entry: SessionEntry, { withLabel = true } = {}): string {
  const label = withLabel ? tree.labels.get(entry.id) : undefined;
  // A label of a megabyte (an imported file's) is cut like any title: laid out whole, it froze the page.
  if (label) return label.length > TITLE_LENGTH ? firstLine(label) : label;
  const fact = factOf(entry);
  const text = fact ? factTitle(fact) : "";
  if (text) return text;
  return entry.type === "message" ? entry.message.role : entry.type.replaceAll("_", " ");
}

/** What a fact says, in one short line, as its kind says ("" when it says nothing a person would recognise it by). */
function factTitle(fact: AgentMessage): string {
  return firstLine(kindOf(fact).title(fact));
}

/**
 * The name of the branch that ends at (or passes through) `entryId`: what was first asked on it after it
 * parted from the others — never an id. A straight session has one branch, named by its first prompt.
 */
export function branchTitle(tree: SessionTree, entryId: string): string {
  // Walk up to where this branch parted from another (an entry with more than one child).
  const path: SessionEntry[] = [];
  for (let id: string | null = entryId; id !== null;) {
    const entry = tree.byId.get(id);
    if (!entry || path.includes(entry)) break;
    path.unshift(entry);
    id = entry.parentId;
  }
  let start = 0;
  for (let index = path.length - 1; index > 0; index--) {
    const parent = path[index - 1] as SessionEntry;
    if ((tree.children.get(parent.id)?.length ?? 0) > 1) {
      start = index;
      break;
    }
  }
  const branch = path.slice(start);
  const asked = branch.find((entry) => entry.type === "message" && entry.message.role === "user");
  const labelled = branch.find((entry) => tree.labels.has(entry.id));
  const named = labelled ?? asked ?? branch[0];
  return named ? entryTitle(tree, named) : "an empty branch";
}

/** One row of the compact outline. */
export interface TreeRow {
  entry: SessionEntry;
  depth: number;
  /** Entries of the straight run hidden before this row (since the previous row on its branch). */
  skipped: number;
  /** "step": an entry inside a straight run that the caller asked to see (`keep`). */
  kind: "root" | "fork" | "branch" | "leaf" | "step";
  /** On the path to the current leaf. */
  current: boolean;
  title: string;
}

/**
 * The outline: the root, every entry where branches part, the first entry of each branch, and every leaf,
 * each at the depth of its branch, plus the entries of the straight runs that `keep` picks. The rest of
 * each run is counted, not listed, so a session of 100,000 entries with a handful of branches is a
 * handful of rows.
 */
export function outline(
  tree: SessionTree,
  leafId: string | null,
  { keep }: { keep?: (entry: SessionEntry) => boolean } = {},
): TreeRow[] {
  const onPath = new Set<string>();
  for (let id = leafId; id !== null;) {
    const entry = tree.byId.get(id);
    if (!entry || onPath.has(id)) break;
    onPath.add(id);
    id = entry.parentId;
  }
  const rows: TreeRow[] = [];
  const childrenOf = (entry: SessionEntry) => tree.children.get(entry.id) ?? [];
  const row = (entry: SessionEntry, depth: number, kind: TreeRow["kind"], skipped: number): TreeRow => ({
    entry,
    depth,
    skipped,
    kind,
    current: onPath.has(entry.id),
    title: entryTitle(tree, entry),
  });
  const roots = tree.children.get("") ?? [];
  // Iteratively, depth first: a deep session must not overflow the stack.
  const stack: { entry: SessionEntry; depth: number; kind: TreeRow["kind"] }[] = roots
    .slice()
    .reverse()
    .map((entry) => ({ entry, depth: 0, kind: "root" as const }));
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    const first = row(item.entry, item.depth, item.kind, 0);
    rows.push(first);
    // Follow the straight run to where it forks or ends: its start and end become rows, and the
    // entries `keep` picks on the way; the others are counted.
    let entry = item.entry;
    let next = childrenOf(entry);
    let between = 0;
    while (next.length === 1) {
      entry = next[0] as SessionEntry;
      next = childrenOf(entry);
      if (next.length !== 1) break;
      if (keep?.(entry)) {
        rows.push(row(entry, item.depth, "step", between));
        between = 0;
      } else between++;
    }
    if (entry !== item.entry) rows.push(row(entry, item.depth, next.length === 0 ? "leaf" : "fork", between));
    else if (next.length === 0) first.kind = item.kind === "root" ? "root" : "leaf";
    else if (item.kind !== "root") first.kind = "fork";
    for (const child of next.slice().reverse())
      stack.push({ entry: child, depth: item.depth + 1, kind: "branch" });
  }
  return rows;
}

/** The leaf a branch leads to when followed from `entryId` (the latest child at each fork). */
export function leafOf(tree: SessionTree, entryId: string): string {
  let id = entryId;
  for (;;) {
    const next = tree.children.get(id);
    if (!next || next.length === 0) return id;
    id = (next[next.length - 1] as SessionEntry).id;
  }
}
