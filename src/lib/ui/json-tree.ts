/**
 * The logic of a folding JSON tree, free of the page: which rows show for a set of open nodes, each node's
 * path as a JavaScript accessor (`messages[3].content[0].text`), and where a search matches.
 *
 * Written here rather than taken from a library: the Svelte 5 JSON viewers on npm (`@sveltejs/svelte-json-tree`,
 * `@zerodevx/svelte-json-view`) fold but neither searches nor copies a path, and `svelte-jsoneditor` does both
 * but is an editor of several hundred kilobytes built on CodeMirror. What the calls view needs is this module
 * and one thin component.
 *
 * The work is bounded whatever the value: only open nodes produce rows, an open node shows its children a
 * page at a time (`CHILDREN_PAGE`), a long string shows its start (`STRING_PREVIEW_CHARS`), "expand all" opens
 * nodes only while the rows fit in `EXPAND_ROW_BUDGET`, and a search stops at `MAX_MATCHES`. The values it is
 * given are parsed from the payload's display text, which is itself cut at `DISPLAY_MAX_CHARS` (500,000
 * characters, see bounded-json.ts), so a search reads at most that many characters.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Segment = string | number;

/** Children shown when a node opens, and added by each "show more". */
export const CHILDREN_PAGE = 100;
/** Characters of a string shown in its row; the whole string stays in the raw text and the copied value. */
export const STRING_PREVIEW_CHARS = 1_000;
/** "Expand all" and the first view open nodes, in reading order, only while the rows stay within this. */
export const EXPAND_ROW_BUDGET = 2_000;
/** A search stops counting here: enough to step through, and it bounds the rows a search can open. */
export const MAX_MATCHES = 1_000;

/** The id of the root node; every other id is its accessor path. */
export const ROOT_ID = "";

export type NodeRow = {
  kind: "node";
  /** The node's accessor path, also its id: "" for the root. */
  id: string;
  segments: readonly Segment[];
  /** 0 for the root. */
  depth: number;
  /** The key or index under its parent; undefined for the root. */
  key: Segment | undefined;
  /** 1-based position among its siblings, and how many siblings there are (for assistive technology). */
  position: number;
  siblings: number;
} & (
  | { type: "object" | "array"; size: number; open: boolean }
  | { type: "string" | "number" | "boolean" | "null"; text: string; cut: number }
);

/** "Show N more": the rest of an open node's children, a page at a time. */
export interface MoreRow {
  kind: "more";
  id: string;
  /** The node whose children continue. */
  parent: string;
  depth: number;
  shown: number;
  total: number;
}

export type TreeRow = NodeRow | MoreRow;

export interface TreeView {
  open: ReadonlySet<string>;
  /** Children shown of an open node, when more than the first page. */
  shown: ReadonlyMap<string, number>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** One step of an accessor: `.name`, `[3]`, or `["x-api-key"]` for a key that is not an identifier. */
export function accessorStep(segment: Segment, first: boolean): string {
  if (typeof segment === "number") return `[${segment}]`;
  if (IDENTIFIER.test(segment)) return first ? segment : `.${segment}`;
  return `[${JSON.stringify(segment)}]`;
}

/** A node's path as JavaScript reads it: `messages[3].content[0].text`, `headers["x-api-key"]`. */
export function accessorPath(segments: readonly Segment[]): string {
  return segments.map((segment, index) => accessorStep(segment, index === 0)).join("");
}

/** How a key is labelled in its row: as it is when plain, quoted when it holds spaces, quotes or breaks. */
export function keyLabel(key: Segment): string {
  if (typeof key === "number" || IDENTIFIER.test(key) || /^[\w$-]+$/.test(key)) return String(key);
  return JSON.stringify(key);
}

export function isContainer(value: JsonValue): value is JsonValue[] | { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null;
}

/** A container's children as [key, value] pairs, in order. */
export function childrenOf(value: JsonValue): [Segment, JsonValue][] {
  if (Array.isArray(value)) return value.map((item, index) => [index, item]);
  if (isContainer(value)) return Object.entries(value);
  return [];
}

function sizeOf(value: JsonValue[] | { [key: string]: JsonValue }): number {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/** A primitive as its row shows it: strings quoted and escaped as JSON writes them, cut when long. */
function primitiveText(value: string | number | boolean | null): { text: string; cut: number } {
  if (typeof value !== "string") return { text: String(value), cut: 0 };
  if (value.length <= STRING_PREVIEW_CHARS) return { text: JSON.stringify(value), cut: 0 };
  return {
    text: JSON.stringify(value.slice(0, STRING_PREVIEW_CHARS)),
    cut: value.length - STRING_PREVIEW_CHARS,
  };
}

function nodeRow(
  value: JsonValue,
  id: string,
  segments: readonly Segment[],
  position: number,
  siblings: number,
  open: ReadonlySet<string>,
): NodeRow {
  const base = {
    kind: "node" as const,
    id,
    segments,
    depth: segments.length,
    key: segments.at(-1),
    position,
    siblings,
  };
  if (isContainer(value)) {
    return {
      ...base,
      type: Array.isArray(value) ? "array" : "object",
      size: sizeOf(value),
      open: open.has(id),
    };
  }
  const type = value === null ? "null" : (typeof value as "string" | "number" | "boolean");
  return { ...base, type, ...primitiveText(value) };
}

/**
 * The rows to show, in reading order: the root, and the children of every open node (a page of them, then a
 * "show more" row). Closed nodes are not entered, so the cost follows what is shown, not the value's size.
 * Iterative, so a deeply nested value cannot overflow the stack.
 */
export function visibleRows(root: JsonValue, view: TreeView): TreeRow[] {
  const rows: TreeRow[] = [];
  type Frame =
    | { value: JsonValue; id: string; segments: readonly Segment[]; position: number; siblings: number }
    | MoreRow;
  const stack: Frame[] = [{ value: root, id: ROOT_ID, segments: [], position: 1, siblings: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if ("kind" in frame) {
      rows.push(frame);
      continue;
    }
    const row = nodeRow(frame.value, frame.id, frame.segments, frame.position, frame.siblings, view.open);
    rows.push(row);
    if (row.type !== "object" && row.type !== "array") continue;
    if (!row.open) continue;
    const children = childrenOf(frame.value);
    const shown = Math.min(children.length, view.shown.get(row.id) ?? CHILDREN_PAGE);
    if (shown < children.length) {
      stack.push({
        kind: "more",
        id: `${row.id}#more`,
        parent: row.id,
        depth: row.depth + 1,
        shown,
        total: children.length,
      });
    }
    for (let index = shown - 1; index >= 0; index--) {
      const [key, child] = children[index]!;
      stack.push({
        value: child,
        id: frame.id + accessorStep(key, frame.segments.length === 0),
        segments: [...frame.segments, key],
        position: index + 1,
        siblings: children.length,
      });
    }
  }
  return rows;
}

/**
 * The nodes to open so the view shows `depth` levels below the root (Infinity: all), opening in reading order
 * only while the rows fit in `budget`: "expand all" on a payload of 100,000 nodes opens the first few
 * thousand rows' worth, not all of them.
 */
export function openToDepth(root: JsonValue, depth: number, budget = EXPAND_ROW_BUDGET): Set<string> {
  const open = new Set<string>();
  let rows = 1;
  // Breadth first: the upper levels open before any deep one spends the budget.
  let level: { value: JsonValue; id: string; segments: Segment[] }[] = [
    { value: root, id: ROOT_ID, segments: [] },
  ];
  for (let current = 0; current < depth && level.length > 0; current++) {
    const next: typeof level = [];
    for (const node of level) {
      if (!isContainer(node.value)) continue;
      const children = childrenOf(node.value);
      const shown = Math.min(children.length, CHILDREN_PAGE);
      const added = shown + (shown < children.length ? 1 : 0);
      if (rows + added > budget) return open;
      rows += added;
      open.add(node.id);
      for (const [key, child] of children.slice(0, shown)) {
        if (isContainer(child)) {
          next.push({
            value: child,
            id: node.id + accessorStep(key, node.segments.length === 0),
            segments: [...node.segments, key],
          });
        }
      }
    }
    level = next;
  }
  return open;
}

export interface Match {
  /** The id (accessor path) of the node that matches. */
  id: string;
  segments: readonly Segment[];
  /** Whether the query was found in the node's key, its value, or both. */
  inKey: boolean;
  inValue: boolean;
}

/**
 * Every node whose key or (primitive) value contains the query, ignoring case, in reading order, whether open
 * or not. Stops at `limit` matches; `complete` says whether it saw the whole value. Iterative for the stack's sake.
 */
export function findMatches(
  root: JsonValue,
  query: string,
  limit = MAX_MATCHES,
): { matches: Match[]; complete: boolean } {
  const needle = query.toLowerCase();
  const matches: Match[] = [];
  if (needle === "") return { matches, complete: true };
  const stack: { value: JsonValue; id: string; segments: Segment[] }[] = [
    { value: root, id: ROOT_ID, segments: [] },
  ];
  while (stack.length > 0) {
    const { value, id, segments } = stack.pop()!;
    const key = segments.at(-1);
    // Array indexes are positions, not text: searching "0" should not match every first item.
    const inKey = typeof key === "string" && key.toLowerCase().includes(needle);
    const inValue = !isContainer(value) && String(value).toLowerCase().includes(needle);
    if (inKey || inValue) {
      if (matches.length === limit) return { matches, complete: false };
      matches.push({ id, segments, inKey, inValue });
    }
    const children = childrenOf(value);
    for (let index = children.length - 1; index >= 0; index--) {
      const [childKey, child] = children[index]!;
      stack.push({
        value: child,
        id: id + accessorStep(childKey, segments.length === 0),
        segments: [...segments, childKey],
      });
    }
  }
  return { matches, complete: true };
}

/** The value at a path, or undefined when the path leads nowhere. */
export function valueAt(root: JsonValue, segments: readonly Segment[]): JsonValue | undefined {
  let value: JsonValue | undefined = root;
  for (const segment of segments) {
    if (value === undefined || !isContainer(value)) return undefined;
    value = Array.isArray(value)
      ? typeof segment === "number"
        ? value[segment]
        : undefined
      : Object.hasOwn(value, segment)
        ? value[segment]
        : undefined;
  }
  return value;
}

/**
 * What to change so the node at `segments` shows: each ancestor opened, and each ancestor's page of children
 * long enough to reach the next step (a match at index 430 of an array shows the first 500 children).
 */
export function revealPath(root: JsonValue, segments: readonly Segment[], view: TreeView): TreeView {
  const open = new Set(view.open);
  const shown = new Map(view.shown);
  let value: JsonValue | undefined = root;
  for (let depth = 0; depth < segments.length && value !== undefined && isContainer(value); depth++) {
    const id = accessorPath(segments.slice(0, depth));
    open.add(id);
    const segment = segments[depth]!;
    const index = Array.isArray(value) ? Number(segment) : Object.keys(value).indexOf(String(segment));
    const needed = Math.ceil((index + 1) / CHILDREN_PAGE) * CHILDREN_PAGE;
    if (needed > (shown.get(id) ?? CHILDREN_PAGE)) shown.set(id, needed);
    value = valueAt(value, [segment]);
  }
  return { open, shown };
}

/** A text cut into the pieces that match the query (ignoring case) and those between, for highlighting. */
export function highlightPieces(text: string, query: string): { text: string; hit: boolean }[] {
  if (query === "") return [{ text, hit: false }];
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  const pieces: { text: string; hit: boolean }[] = [];
  let start = 0;
  // Lower-casing keeps the length for nearly all text; where it does not, the indexes would drift, so the
  // text is shown whole rather than highlighted in the wrong place.
  if (lower.length !== text.length) return [{ text, hit: false }];
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) {
    if (at > start) pieces.push({ text: text.slice(start, at), hit: false });
    pieces.push({ text: text.slice(at, at + needle.length), hit: true });
    start = at + needle.length;
  }
  if (start < text.length) pieces.push({ text: text.slice(start), hit: false });
  return pieces;
}

/** The payload text as a tree, or why it cannot be one (a payload cut short is not JSON any more). */
export function parseJsonText(text: string): { value: JsonValue } | { error: string } {
  try {
    return { value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** "5 keys", "16 items", "1 item". */
export function sizeLabel(type: "object" | "array", size: number): string {
  const noun = type === "array" ? "item" : "key";
  return `${size.toLocaleString("en-US")} ${noun}${size === 1 ? "" : "s"}`;
}

/** What a key does in the tree, following the WAI-ARIA tree pattern. */
export type TreeKeyAction =
  | { kind: "move"; index: number }
  | { kind: "open"; id: string }
  | { kind: "close"; id: string }
  | { kind: "more"; parent: string }
  | undefined;

/**
 * Down/Up move by a row, Home/End to the ends; Right opens a closed node or moves into an open one; Left
 * closes an open node or moves to its parent; Enter and Space fold or unfold (or show more).
 */
export function treeKey(key: string, rows: readonly TreeRow[], active: number): TreeKeyAction {
  const row = rows[active];
  if (row === undefined) return rows.length > 0 ? { kind: "move", index: 0 } : undefined;
  const container = row.kind === "node" && (row.type === "object" || row.type === "array") ? row : undefined;
  switch (key) {
    case "ArrowDown":
      return { kind: "move", index: Math.min(rows.length - 1, active + 1) };
    case "ArrowUp":
      return { kind: "move", index: Math.max(0, active - 1) };
    case "Home":
      return { kind: "move", index: 0 };
    case "End":
      return { kind: "move", index: rows.length - 1 };
    case "ArrowRight":
      if (container === undefined || container.size === 0) return undefined;
      return container.open ? { kind: "move", index: active + 1 } : { kind: "open", id: container.id };
    case "ArrowLeft": {
      if (container?.open) return { kind: "close", id: container.id };
      for (let index = active - 1; index >= 0; index--) {
        if (rows[index]!.depth < row.depth) return { kind: "move", index };
      }
      return undefined;
    }
    case "Enter":
    case " ":
      if (row.kind === "more") return { kind: "more", parent: row.parent };
      if (container === undefined || container.size === 0) return undefined;
      return { kind: container.open ? "close" : "open", id: container.id };
    default:
      return undefined;
  }
}
