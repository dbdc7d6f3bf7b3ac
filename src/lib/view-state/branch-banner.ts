import type { SessionEntry } from "../messages/entries.ts";
import type { SessionTree } from "../model-view/session-tree.ts";
import type { BranchBanner, BranchingSession, BranchPoint } from "./branch-return.svelte.ts";

// The banner's words after "Fork from here": loaded with the banner, the first time there is one.

/** The banner for the session as it is now; undefined when there is none to show. */
export function branchBanner(
  point: BranchPoint | undefined,
  session: BranchingSession,
): BranchBanner | undefined {
  if (!point) return undefined;
  const tree = session.tree;
  const from = tree?.byId.get(point.fromId);
  if (!tree || !from || !tree.byId.has(point.backLeafId)) return undefined;
  let fromOnPath = false;
  for (const entry of session.path) {
    if (entry.id === point.backLeafId) return undefined;
    if (entry.id === point.fromId) fromOnPath = true;
  }
  if (!fromOnPath) return undefined;
  return {
    fromTitle: session.entryTitle(from) ?? "",
    backTitle: leftTitle(session, tree, point),
  };
}

/**
 * The branch that was left is what came after the branch point on it: named by its label, else by what
 * was first asked there, else by its first entry (as `branchTitle` names branches).
 */
function leftTitle(session: BranchingSession, tree: SessionTree, point: BranchPoint): string {
  const left: SessionEntry[] = [];
  for (let id: string | null = point.backLeafId; id !== null && id !== point.fromId;) {
    const entry = tree.byId.get(id);
    if (!entry || left.includes(entry)) break;
    left.unshift(entry);
    id = entry.parentId;
  }
  const named =
    left.find((entry) => tree.labels.has(entry.id)) ??
    left.find((entry) => entry.type === "message" && entry.message.role === "user") ??
    left[0];
  return (named ? session.entryTitle(named) : session.branchTitle(point.backLeafId)) ?? "";
}
