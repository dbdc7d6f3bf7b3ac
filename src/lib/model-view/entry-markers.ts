import type { SessionEntry } from "../messages/entries.ts";
import { clipInline, entryTitle, type SessionTree } from "./session-tree.ts";

/**
 * One line for an entry on the path that is not a fact but changes something about the session: the
 * model, the thinking level, a label, the session's name, or what the model reads of an earlier fact (a
 * context edit). The chat shows these as small rows between messages, the tree view as small rows of the
 * branch. Entries that change nothing a person reads (an extension's own state, usage records, entries
 * of an unknown type) have no marker. What a file put in them is cut to a line's length (a label of a
 * megabyte took seconds to lay out).
 */
export function markerText(tree: SessionTree, entry: SessionEntry): string | undefined {
  switch (entry.type) {
    case "model_change":
      return `Model: ${clipInline(`${entry.provider}/${entry.modelId}`)}`;
    case "thinking_level_change":
      return `Thinking level: ${clipInline(entry.thinkingLevel)}`;
    case "session_info":
      return entry.name ? `Session named “${clipInline(entry.name)}”` : "Session name cleared";
    case "label": {
      const target = targetTitle(tree, entry.targetId);
      return entry.label ? `Label “${clipInline(entry.label)}” on ${target}` : `Label removed from ${target}`;
    }
    case "context_edit": {
      const target = targetTitle(tree, entry.targetId);
      // What the edit does first: a long title is cut at its end.
      return entry.replacement === null
        ? `Context edit · left out of what the model reads: ${target}`
        : `Context edit · new content for the model: ${target}`;
    }
    case "message":
    case "custom_message":
    case "compaction":
    case "branch_summary":
    case "custom":
    case "usage":
    case "unknown":
      return undefined;
  }
}

/** The entry a marker is about, by what it says (never by its id). */
function targetTitle(tree: SessionTree, targetId: string): string {
  const target = tree.byId.get(targetId);
  return target ? `“${entryTitle(tree, target, { withLabel: false })}”` : "an entry not in this session";
}
