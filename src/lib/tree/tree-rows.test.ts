import { describe, expect, it } from "vitest";
import { chainEntries } from "../messages/entries.ts";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { piTrees } from "../model-view/pi-sessions.test-support.ts";
import { buildTree } from "../model-view/session-tree.ts";
import { branchSwitch, treeRows } from "./tree-rows.ts";

const trees = piTrees();
const named = (name: string) => {
  const tree = trees.find((candidate) => candidate.name.startsWith(name));
  if (!tree) throw new Error(`no tree ${name}`);
  return tree;
};

describe("the tree view's rows", () => {
  it("shows both branches indented, the current path marked, the summary pi left, and never an id", () => {
    const { entries, leafId } = named("an abandoned branch");
    const rows = treeRows(buildTree(entries), leafId);
    expect(rows.map((row) => [row.depth, row.badge, row.title, row.current, row.skipped])).toEqual([
      [0, "system", "system prompt", true, 0],
      [0, "you", "first question", true, 0],
      [1, "reply", "first answer", false, 0],
      [1, "you", "abandoned follow-up", false, 0],
      [1, "reply", "abandoned answer", false, 0],
      [1, "branch summary", "Tried the follow-up; it went nowhere.", true, 0],
      [1, "you", "second question", true, 0],
    ]);
    expect(rows.at(-1)?.name).toBe("you: second question, end of a branch, the current leaf");
    expect(rows[1]?.name).toBe("you: first question, branches part here, on the current path");
    expect(rows[2]?.name).toBe("reply: first answer, first entry of a branch");
    for (const row of rows) for (const entry of entries) expect(row.name).not.toContain(entry.id);
  });

  it("lists markers as small rows and a label beside the entry it names", () => {
    const { entries, leafId } = named("labels");
    const rows = treeRows(buildTree(entries), leafId);
    const one = rows.find((row) => row.title === "one");
    expect(one?.label).toBe("start");
    expect(one?.name).toContain("labelled “start”");
    expect(rows.filter((row) => row.marker).map((row) => row.title)).toEqual([
      "Context edit · new content for the model: “one”",
    ]);
    expect(rows.map((row) => row.badge)).toContain("compaction");
  });

  it("counts the replies between prompts rather than listing them", () => {
    const messages = Array.from({ length: 200 }, (_, index) =>
      index % 4 === 0
        ? createUserMessage(`q${index}`, index)
        : createInjectedAssistantMessage(`a${index}`, index),
    );
    const entries = chainEntries(messages, null);
    const rows = treeRows(buildTree(entries), entries.at(-1)?.id ?? null);
    expect(rows).toHaveLength(51);
    expect(rows[1]?.skipped).toBe(3);
    expect(rows[1]?.name).toBe("you: q4, on the current path, after 3 more entries");
  });

  it("names the branch being left and the one gone to by their titles", () => {
    const { entries, leafId } = named("an abandoned branch");
    const tree = buildTree(entries);
    const abandoned = treeRows(tree, leafId).find((row) => row.title === "abandoned follow-up");
    expect(branchSwitch(tree, leafId, abandoned?.entryId ?? "")).toEqual({
      leaving: "second question",
      target: "abandoned follow-up",
    });
  });
});
