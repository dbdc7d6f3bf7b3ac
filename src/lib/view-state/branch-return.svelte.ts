import { createContext } from "svelte";
import type { SessionEntry } from "../messages/entries.ts";
import type { SessionTree } from "../model-view/session-tree.ts";

/** What the banner needs of the session's branches (`ChatSession.branches`): its tree and path, and the two moves. */
export interface BranchingSession {
  /** Undefined while the tree's code loads. */
  readonly tree: SessionTree | undefined;
  entryTitle(entry: SessionEntry): string | undefined;
  branchTitle(entryId: string): string | undefined;
  readonly path: readonly SessionEntry[];
  readonly leafId: string | null;
  entryIdAt(index: number): string | undefined;
  branchFrom(index: number): Promise<void>;
  switchBranch(entryId: string, options?: { summary?: string; followToLeaf?: boolean }): Promise<void>;
}

export interface BranchPoint {
  /** The entry the new branch starts after. */
  fromId: string;
  /** The leaf of the branch that was left. */
  backLeafId: string;
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
  #point = $state.raw<BranchPoint | undefined>(undefined);

  /** Continue from the fact at `index` on a new branch, remembering where the session was. */
  async branchFrom(session: BranchingSession, index: number): Promise<void> {
    const fromId = session.entryIdAt(index);
    const backLeafId = session.leafId;
    if (fromId === undefined) return;
    await session.branchFrom(index);
    this.#point = backLeafId !== null && backLeafId !== fromId ? { fromId, backLeafId } : undefined;
  }

  /** Where the last "Fork from here" started, and the branch it left; undefined once gone back. */
  get point(): BranchPoint | undefined {
    return this.#point;
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

export const [getBranchReturn, setBranchReturn] = createContext<BranchReturn>();
