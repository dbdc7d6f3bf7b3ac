import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { createUserMessage } from "../messages/factories.ts";
import { piTrees } from "./pi-sessions.test-support.ts";
import { withoutMarkdown } from "../messages/kinds/text.ts";
import { branchTitle, buildTree, entryTitle, leafOf, outline } from "./session-tree.ts";

const trees = piTrees();
const named = (name: string) => {
  const tree = trees.find((candidate) => candidate.name.startsWith(name));
  if (!tree) throw new Error(`no tree ${name}`);
  return tree;
};
const messageText = (entries: readonly SessionEntry[], text: string) =>
  entries.find(
    (entry) =>
      entry.type === "message" &&
      JSON.stringify((entry.message as { content?: unknown }).content ?? "").includes(text),
  );

describe("the session tree", () => {
  it("names a branch by what was first asked on it, never by an id", () => {
    const { entries } = named("an abandoned branch");
    const tree = buildTree(entries);
    const abandoned = messageText(entries, "abandoned answer");
    const current = messageText(entries, "second question");
    if (!abandoned || !current) throw new Error("entries missing");
    expect(branchTitle(tree, abandoned.id)).toBe("abandoned follow-up");
    // The current branch starts with the summary pi left where it came back; what was asked names it.
    expect(branchTitle(tree, current.id)).toBe("second question");
  });

  it("names a straight session by its first prompt, and prefers a label", () => {
    const entries = chainEntries([createUserMessage("plan the trip", 1), createUserMessage("more", 2)], null);
    const tree = buildTree(entries);
    expect(branchTitle(tree, entries[1]?.id ?? "")).toBe("plan the trip");
    const labelled = buildTree([
      ...entries,
      {
        type: "label",
        id: "l",
        parentId: entries[1]?.id ?? null,
        timestamp: "",
        targetId: entries[0]?.id ?? "",
        label: "Trip",
      },
    ]);
    expect(branchTitle(labelled, entries[1]?.id ?? "")).toBe("Trip");
  });

  it("cuts a label of a megabyte to a title's length (laid out whole, it froze the page)", () => {
    const entries = chainEntries([createUserMessage("short", 1)], null);
    const label = `big ${"x".repeat(1024 * 1024)}`;
    const tree = buildTree([
      ...entries,
      {
        type: "label",
        id: "l",
        parentId: entries[0]?.id ?? null,
        timestamp: "",
        targetId: entries[0]?.id ?? "",
        label,
      },
    ]);
    const title = entryTitle(tree, entries[0] as SessionEntry);
    expect(title.startsWith("big xxx")).toBe(true);
    expect(title.endsWith("…")).toBe(true);
    expect(title.length).toBeLessThanOrEqual(60);
  });

  it("outlines where branches part and end, counting the straight runs it does not list", () => {
    const { entries, leafId } = named("nested branches");
    const rows = outline(buildTree(entries), leafId);
    expect(rows.map((row) => [row.depth, row.kind, row.title, row.current])).toEqual([
      [0, "root", "system prompt", true],
      [0, "fork", "root", true],
      [1, "fork", "a", true],
      [2, "leaf", "a1", false],
      [2, "fork", "b1", true],
      [3, "leaf", "b1 answer", false],
      [3, "leaf", "b1 other answer", false],
      [3, "leaf", "b1 third answer", true],
      [1, "leaf", "root other answer", false],
    ]);
    expect(rows[1]?.skipped).toBe(0);
  });

  it("keeps a long straight session to two rows and follows a branch to its latest leaf", () => {
    const entries = chainEntries(
      Array.from({ length: 5_000 }, (_, index) => createUserMessage(`m${index}`, index)),
      null,
    );
    const tree = buildTree(entries);
    const rows = outline(tree, entries.at(-1)?.id ?? null);
    expect(rows.map((row) => [row.kind, row.skipped])).toEqual([
      ["root", 0],
      ["leaf", 4_998],
    ]);
    expect(leafOf(tree, entries[0]?.id ?? "")).toBe(entries.at(-1)?.id);
  });

  it("lists the entries `keep` picks inside a straight run, counting the others between them", () => {
    const { entries, leafId } = named("a straight conversation");
    const tree = buildTree(entries);
    const rows = outline(tree, leafId, {
      keep: (entry) => entry.type !== "message" || entry.message.role === "user",
    });
    expect(rows.map((row) => [row.kind, row.title, row.skipped])).toEqual([
      ["root", "system prompt", 0],
      ["step", "model change", 0],
      ["step", "thinking level change", 0],
      ["step", "one", 0],
      ["step", "session info", 1],
      ["step", "custom", 0],
      ["leaf", "three", 0],
    ]);
    expect(rows.every((row) => row.current)).toBe(true);
  });

  it("titles an entry by what it says when asked to leave its label aside", () => {
    const entries = chainEntries([createUserMessage("plan the trip", 1)], null);
    const first = entries[0] as SessionEntry;
    const tree = buildTree([
      ...entries,
      { type: "label", id: "l", parentId: first.id, timestamp: "", targetId: first.id, label: "Trip" },
    ]);
    expect(entryTitle(tree, first)).toBe("Trip");
    expect(entryTitle(tree, first, { withLabel: false })).toBe("plan the trip");
  });

  it("titles a fact of a role nobody defined by its role", () => {
    const unknownRole = { role: "artifact", title: "plan", timestamp: 2 } as unknown as AgentMessage;
    const entries = chainEntries([createUserMessage("plan the trip", 1), unknownRole], null);
    const tree = buildTree(entries);
    expect(entryTitle(tree, entries[1] as SessionEntry)).toBe("artifact");
  });
});

describe("titles of replies", () => {
  it("are the text a reader sees, without Markdown's marks", () => {
    expect(withoutMarkdown("Calling `save_note` with **care**, see [the docs](https://x.test).")).toBe(
      "Calling save_note with care, see the docs.",
    );
    expect(withoutMarkdown("## Plan\n> quoted\n- one\n1. two\n```ts\nconst a_b = 1;\n```")).toBe(
      "Plan\nquoted\none\ntwo\n\nconst a_b = 1;\n",
    );
    // Underscores inside names and a lone asterisk are text, not emphasis.
    expect(withoutMarkdown("save_note and 2 * 3 = 6")).toBe("save_note and 2 * 3 = 6");
  });
});
