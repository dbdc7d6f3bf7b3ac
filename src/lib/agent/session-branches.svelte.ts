import type { EditableContent, SessionEntry } from "../messages/entries.ts";
import { editableContent } from "../model-view/session-projection.ts";
import type { SessionTree } from "../model-view/session-tree.ts";
import type { RunController } from "./run-controller.svelte.ts";
import type { Transcript } from "./transcript.svelte.ts";

type TreeCode = typeof import("../model-view/tree-code.ts");

/** What the branches work on: the transcript (the tree's one writer) and the runs that change it. */
export interface BranchesHost {
  transcript: Transcript;
  runs: RunController;
}

/**
 * The session as a tree, as pi's session model has it: where the session is on the tree, what its entries
 * and branches are called, and the moves on it — continue from an earlier fact, switch branch (with a
 * summary of the branch left), edit what the model reads of a fact, regenerate a reply, or ask again with
 * an edited prompt. Every move appends entries or moves the leaf through the transcript, never rewrites.
 */
export class SessionBranches {
  readonly #transcript: Transcript;
  readonly #runs: RunController;
  #treeCode = $state.raw<TreeCode | undefined>(undefined);
  #treeCodeLoading: Promise<TreeCode> | undefined;
  readonly #tree: SessionTree | undefined = $derived(this.#treeCode?.buildTree(this.#entries));

  constructor({ transcript, runs }: BranchesHost) {
    this.#transcript = transcript;
    this.#runs = runs;
  }

  /** Every entry, all branches; a getter, as the tree's `$derived` is declared before the constructor runs. */
  get #entries(): readonly SessionEntry[] {
    return this.#transcript.entries;
  }

  /** The tree's code, loaded once (see `tree-code.ts`). */
  treeCode(): Promise<TreeCode> {
    this.#treeCodeLoading ??= import("../model-view/tree-code.ts").then((code) => (this.#treeCode = code));
    return this.#treeCodeLoading;
  }

  /**
   * Every entry of the session with its branches, for the tree view and branch names; undefined until the
   * tree's code has loaded, which asking for it starts (readers then see the tree appear).
   */
  get tree(): SessionTree | undefined {
    if (!this.#treeCode) void this.treeCode();
    return this.#tree;
  }

  /** A one-line title for an entry, as the tree names it; undefined while the tree's code loads. */
  entryTitle(entry: SessionEntry): string | undefined {
    const tree = this.tree;
    return tree && this.#treeCode?.entryTitle(tree, entry);
  }

  /** The title of the branch through `entryId`; undefined while the tree's code loads. */
  branchTitle(entryId: string): string | undefined {
    const tree = this.tree;
    return tree && this.#treeCode?.branchTitle(tree, entryId);
  }

  /** The line the chat shows for a marker entry (a model change, a context edit…); undefined for none. */
  markerText(entry: SessionEntry): string | undefined {
    const tree = this.tree;
    return tree && this.#treeCode?.markerText(tree, entry);
  }

  /** The entries on the path to the leaf (facts, and the markers between them). */
  get path(): readonly SessionEntry[] {
    return this.#transcript.path;
  }

  get leafId(): string | null {
    return this.#transcript.leafId;
  }

  /** The entry behind the fact at `index`. */
  entryIdAt(index: number): string | undefined {
    return this.#transcript.entryIdAt(index);
  }

  // --- moves on the tree ---------------------------------------------------------------------------

  /**
   * Continue from the fact at `index`: the facts after it leave the path and stay in the tree, on their
   * branch; what is sent next starts a new branch there.
   */
  branchFrom(index: number): Promise<void> {
    const id = this.#transcript.entryIdAt(index);
    if (id === undefined) return Promise.resolve();
    return this.#runs.whileIdle(() => this.#transcript.moveLeaf(id));
  }

  /**
   * Go to another branch (the one through `entryId`, followed to its latest leaf when `followToLeaf`). With
   * a summary, leave the branch being left summarised where the other one continues, as pi's
   * `branchWithSummary` does: the model on that branch reads what was tried here.
   */
  switchBranch(
    entryId: string,
    { summary, followToLeaf = true }: { summary?: string; followToLeaf?: boolean } = {},
  ): Promise<void> {
    return this.#switchBranch(entryId, summary, followToLeaf);
  }

  async #switchBranch(entryId: string, summary: string | undefined, followToLeaf: boolean): Promise<void> {
    const code = await this.treeCode();
    const target = followToLeaf ? code.leafOf(this.#tree ?? code.buildTree(this.#entries), entryId) : entryId;
    return this.#runs.whileIdle(() => {
      const from = this.#transcript.leafId;
      this.#transcript.moveLeaf(target);
      const text = summary?.trim();
      if (text && from !== null)
        this.#transcript.appendEntry({ type: "branch_summary", fromId: from, summary: text });
    });
  }

  /** Replace what the model reads of a fact, keeping the fact itself (a pi context edit). */
  editFact(index: number, content: EditableContent): Promise<void> {
    return this.#contextEdit(index, { content });
  }

  /** Leave a fact out of what the model reads, keeping it among the facts (a pi context edit). */
  omitFact(index: number): Promise<void> {
    return this.#contextEdit(index, null);
  }

  /** Undo the edits of a fact: a last edit that gives the model the original content again. */
  restoreFact(index: number): Promise<void> {
    const original = this.#transcript.facts[index];
    const content = original ? editableContent(original) : undefined;
    return content === undefined ? Promise.resolve() : this.#contextEdit(index, { content });
  }

  #contextEdit(index: number, replacement: { content: EditableContent } | null): Promise<void> {
    const targetId = this.#transcript.entryIdAt(index);
    if (targetId === undefined || this.#runs.running) return Promise.resolve();
    return this.#runs.whileIdle(() => {
      this.#transcript.appendEntry({ type: "context_edit", targetId, replacement });
    });
  }

  /** A new reply to what the reply at `index` answered, on a branch of its own. */
  regenerate(index: number): Promise<void> {
    const id = this.#transcript.entryIdAt(index);
    return id === undefined ? Promise.resolve() : this.#runs.regenerate(id);
  }

  /** Ask again with an edited prompt in place of the one at `index`, on a branch of its own. */
  editAndResend(index: number, text: string): Promise<boolean> {
    const id = this.#transcript.entryIdAt(index);
    return id === undefined ? Promise.resolve(false) : this.#runs.resend(id, text);
  }
}
