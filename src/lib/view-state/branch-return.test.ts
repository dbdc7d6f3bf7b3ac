import { describe, expect, it } from "vitest";
import { chainEntries, pathTo, type SessionEntry } from "../messages/entries.ts";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { branchTitle, buildTree, entryTitle, leafOf } from "../model-view/session-tree.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { branchBanner } from "./branch-banner.ts";
import { BranchReturn, type BranchingSession } from "./branch-return.svelte.ts";

/** A session tree held in memory, moving its leaf the way the live session does. */
class FakeSession implements BranchingSession {
  entries: SessionEntry[];
  leafId: string | null;
  constructor(entries: SessionEntry[]) {
    this.entries = entries;
    this.leafId = entries.at(-1)?.id ?? null;
  }
  get tree() {
    return buildTree(this.entries);
  }
  entryTitle(entry: SessionEntry) {
    return entryTitle(this.tree, entry);
  }
  branchTitle(entryId: string) {
    return branchTitle(this.tree, entryId);
  }
  get path() {
    return pathTo(this.entries, this.leafId);
  }
  entryIdAt(index: number) {
    return projectSession(this.path).factIds[index];
  }
  branchFrom(index: number) {
    this.leafId = this.entryIdAt(index) ?? this.leafId;
    return Promise.resolve();
  }
  switchBranch(entryId: string, { followToLeaf = true } = {}) {
    this.leafId = followToLeaf ? leafOf(this.tree, entryId) : entryId;
    return Promise.resolve();
  }
  send(text: string) {
    const [entry] = chainEntries([createUserMessage(text, 9)], this.leafId);
    if (entry) this.entries = [...this.entries, entry];
    this.leafId = entry?.id ?? this.leafId;
  }
}

const session = () =>
  new FakeSession(
    chainEntries(
      [
        createUserMessage("plan the trip", 1),
        createInjectedAssistantMessage("Go by train.", 2),
        createUserMessage("what about the car", 3),
        createInjectedAssistantMessage("Too far.", 4),
      ],
      null,
    ),
  );

describe("the way back after branching", () => {
  it("names the branch point and the branch that was left, and goes back to where the session was", async () => {
    const live = session();
    const leaf = live.leafId;
    const branches = new BranchReturn();
    await branches.branchFrom(live, 1);
    // The branch left is named by what was asked on it after the branch point.
    expect(branchBanner(branches.point, live)).toEqual({
      fromTitle: "Go by train.",
      backTitle: "what about the car",
    });
    live.send("and by bike?");
    expect(branchBanner(branches.point, live)).toEqual({
      fromTitle: "Go by train.",
      backTitle: "what about the car",
    });
    await branches.back(live);
    expect(live.leafId).toBe(leaf);
    expect(branchBanner(branches.point, live)).toBeUndefined();
  });

  it("shows nothing when branching from the end, or once the path leaves the branch point", async () => {
    const live = session();
    const branches = new BranchReturn();
    await branches.branchFrom(live, 3);
    expect(branchBanner(branches.point, live)).toBeUndefined();
    await branches.branchFrom(live, 1);
    expect(branchBanner(branches.point, live)).toBeDefined();
    await live.switchBranch(live.entryIdAt(0) as string, { followToLeaf: false });
    expect(branchBanner(branches.point, live)).toBeUndefined();
  });
});
