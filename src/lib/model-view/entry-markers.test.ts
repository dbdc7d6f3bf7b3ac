import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../messages/entries.ts";
import { piTrees } from "./pi-sessions.test-support.ts";
import { markerText } from "./entry-markers.ts";
import { projectSession } from "./session-projection.ts";
import { buildTree } from "./session-tree.ts";

const trees = piTrees();
const named = (name: string) => {
  const tree = trees.find((candidate) => candidate.name.startsWith(name));
  if (!tree) throw new Error(`no tree ${name}`);
  return tree;
};

/** The marker lines of a pi session's path, as the chat shows them between its messages. */
function markersOf(name: string): string[] {
  const { entries, leafId } = named(name);
  const tree = buildTree(entries);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const path: SessionEntry[] = [];
  for (let id = leafId; id !== null;) {
    const entry = byId.get(id);
    if (!entry) break;
    path.unshift(entry);
    id = entry.parentId;
  }
  return projectSession(path).markers.flatMap(({ entry }) => markerText(tree, entry) ?? []);
}

describe("markers for the entries between facts", () => {
  it("names model and thinking changes and the session name; an extension's state has none", () => {
    expect(markersOf("a straight conversation")).toEqual([
      "Model: anthropic/claude-test",
      "Thinking level: high",
      "Session named “A named session”",
    ]);
  });

  it("says what each context edit does to which fact, by the fact's text, never its id", () => {
    const lines = markersOf("context edits");
    expect(lines).toEqual([
      "Context edit · new content for the model: “a long question with a secret”",
      "Context edit · new content for the model: “an answer to edit”",
      "Context edit · new content for the model: “an answer to edit”",
      "Context edit · new content for the model: “calculate: 2”",
      "Context edit · left out of what the model reads: “failed reply”",
    ]);
    const { entries } = named("context edits");
    for (const entry of entries) for (const line of lines) expect(line).not.toContain(entry.id);
  });

  it("names a label by its text and the entry it marks, as it was before the label", () => {
    expect(markersOf("labels")).toEqual([
      "Label “start” on “one”",
      "Context edit · new content for the model: “one”",
    ]);
  });

  it("cuts what a file put in a marker (a label, a name, a model id of a megabyte) to a line", () => {
    const big = "y".repeat(1024 * 1024);
    const target: SessionEntry = {
      type: "message",
      id: "m",
      parentId: null,
      timestamp: "",
      message: { role: "user", content: "hello", timestamp: 1 },
    };
    const at = { id: "x", parentId: "m", timestamp: "" };
    const tree = buildTree([target]);
    const markers = [
      markerText(tree, { ...at, type: "label", targetId: "m", label: big }),
      markerText(tree, { ...at, type: "session_info", name: big }),
      markerText(tree, { ...at, type: "model_change", provider: "p", modelId: big }),
    ];
    for (const marker of markers) {
      expect(marker).toMatch(/yyy…/);
      expect(marker!.length).toBeLessThan(200);
    }
    expect(markers[0]).toMatch(/on “hello”$/);
  });
});
