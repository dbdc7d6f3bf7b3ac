import { countOf } from "../../shared/count-of.ts";
import type { SessionEntry } from "../messages/entries.ts";
import { markerText } from "../model-view/entry-markers.ts";
import {
  branchTitle,
  entryTitle,
  leafOf,
  outline,
  type SessionTree,
  type TreeRow,
} from "../model-view/session-tree.ts";

/** One row of the tree view, ready to show: what it says, where it is, and its accessible name. */
export interface TreeViewRow {
  entryId: string;
  depth: number;
  /** A marker (a model change, a context edit, …): shown small, as in the chat. */
  marker: boolean;
  /** What kind of entry: "you", "reply", "compaction", "model", … */
  badge: string;
  title: string;
  label: string | undefined;
  /** On the path to the current leaf; `leaf`: the current leaf itself. */
  current: boolean;
  leaf: boolean;
  kind: TreeRow["kind"];
  /** Entries of the straight run not listed before this row. */
  skipped: number;
  name: string;
}

/** Entries listed even inside a straight run: every prompt, summaries, and the markers. */
export function shownInTree(entry: SessionEntry): boolean {
  switch (entry.type) {
    case "message":
      return entry.message.role === "user";
    case "compaction":
    case "branch_summary":
    case "model_change":
    case "thinking_level_change":
    case "session_info":
    case "context_edit":
      return true;
    // A label names its target's row; usage and extension state say nothing a person reads here.
    case "label":
    case "usage":
    case "custom":
    case "custom_message":
    case "unknown":
      return false;
  }
}

const BADGES: Partial<Record<SessionEntry["type"], string>> = {
  compaction: "compaction",
  branch_summary: "branch summary",
  custom_message: "custom",
  model_change: "model",
  thinking_level_change: "thinking",
  session_info: "name",
  context_edit: "context edit",
  label: "label",
  usage: "usage",
  custom: "extension state",
  unknown: "unknown entry",
};

const ROLE_BADGES: Record<string, string> = {
  user: "you",
  assistant: "reply",
  toolResult: "tool result",
  system: "system",
};

function badgeOf(entry: SessionEntry): string {
  if (entry.type === "message") return ROLE_BADGES[entry.message.role] ?? entry.message.role;
  return BADGES[entry.type] ?? entry.type;
}

const KIND_NAMES: Record<TreeRow["kind"], string> = {
  root: "start",
  fork: "branches part here",
  branch: "first entry of a branch",
  leaf: "end of a branch",
  step: "",
};

/**
 * The tree view's rows, like pi's `/tree`: where branches part, the first entry of each branch, its
 * end, and on the way every prompt and marker; replies and tool results between them are counted.
 */
export function treeRows(tree: SessionTree, leafId: string | null): TreeViewRow[] {
  return outline(tree, leafId, { keep: shownInTree }).map((row) => {
    const { entry } = row;
    const marker = markerText(tree, entry);
    const label = tree.labels.get(entry.id);
    // The outline titles a labelled entry by its label; the row shows the label apart, and the text.
    const title = marker ?? (label ? entryTitle(tree, entry, { withLabel: false }) : row.title);
    const badge = badgeOf(entry);
    const leaf = entry.id === leafId;
    const parts = [
      `${badge}: ${title}`,
      label ? `labelled “${label}”` : "",
      KIND_NAMES[row.kind],
      leaf ? "the current leaf" : row.current ? "on the current path" : "",
      row.skipped > 0 ? `after ${countOf(row.skipped, "more entry", "more entries")}` : "",
    ];
    return {
      entryId: entry.id,
      depth: row.depth,
      marker: marker !== undefined,
      badge,
      title,
      label,
      current: row.current,
      leaf,
      kind: row.kind,
      skipped: row.skipped,
      name: parts.filter(Boolean).join(", "),
    };
  });
}

/** Going to another branch: the one being left and the one gone to, each by its title. */
export interface BranchSwitch {
  leaving: string;
  target: string;
}

export function branchSwitch(tree: SessionTree, leafId: string | null, entryId: string): BranchSwitch {
  return {
    leaving: leafId === null ? "the empty session" : branchTitle(tree, leafId),
    target: branchTitle(tree, leafOf(tree, entryId)),
  };
}
