import { createContext } from "svelte";
import type { SessionEntry } from "../messages/entries.ts";
import { branchTitle, entryTitle, type SessionTree } from "../model-view/session-tree.ts";

/** What the banner needs of the session: its tree and path, and the two moves. */
export interface BranchingSession {
  readonly tree: SessionTree;
  readonly path: readonly SessionEntry[];
  readonly leafId: string | null;
  entryIdAt(index: number): string | undefined;
  branchFrom(index: number): Promise<void>;
  switchBranch(entryId: string, options?: { summary?: string; followToLeaf?: boolean }): Promise<void>;
}

export interface BranchBanner {
  /** The entry the new branch starts after, by what it says. */
  fromTitle: string;
  /** The branch that was left, by its title. */
  backTitle: string;
}

/**
 * "Fork from here" in the chat or the inspector: the session continues from that fact on a new branch,
 * and a banner offers the way back to the branch that was left. The banner lasts while the new branch is
 * the current one: going back, or anywhere the branch point is not on the path, ends it.
 */
export class BranchReturn {
  #point = $state.raw<{ fromId: string; backLeafId: string } | undefined>(undefined);

  /** Continue from the fact at `index` on a new branch, remembering where the session was. */
  async branchFrom(session: BranchingSession, index: number): Promise<void> {
    const fromId = session.entryIdAt(index);
    const backLeafId = session.leafId;
    if (fromId === undefined) return;
    await session.branchFrom(index);
    this.#point = backLeafId !== null && backLeafId !== fromId ? { fromId, backLeafId } : undefined;
  }

  /** The banner for the session as it is now; undefined when there is none to show. */
  banner(session: BranchingSession): BranchBanner | undefined {
    const point = this.#point;
    if (!point) return undefined;
    const from = session.tree.byId.get(point.fromId);
    if (!from || !session.tree.byId.has(point.backLeafId)) return undefined;
    let fromOnPath = false;
    for (const entry of session.path) {
      if (entry.id === point.backLeafId) return undefined;
      if (entry.id === point.fromId) fromOnPath = true;
    }
    if (!fromOnPath) return undefined;
    return {
      fromTitle: entryTitle(session.tree, from),
      backTitle: leftTitle(session.tree, point),
    };
  }

  /** Back to where the session was before branching (and the banner goes). */
  async back(session: BranchingSession): Promise<void> {
    const point = this.#point;
    if (!point) return;
    await session.switchBranch(point.backLeafId, { followToLeaf: false });
    this.#point = undefined;
  }

  dismiss(): void {
    this.#point = undefined;
  }
}

/**
 * The branch that was left is what came after the branch point on it: named by its label, else by what
 * was first asked there, else by its first entry (as `branchTitle` names branches).
 */
function leftTitle(tree: SessionTree, point: { fromId: string; backLeafId: string }): string {
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
  return named ? entryTitle(tree, named) : branchTitle(tree, point.backLeafId);
}

export const [getBranchReturn, setBranchReturn] = createContext<BranchReturn>();
