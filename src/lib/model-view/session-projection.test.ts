import { describe, expect, it } from "vitest";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import { convertToLlm } from "../messages/convert.ts";
import { piMessages, piSession, piTrees } from "./pi-sessions.test-support.ts";
import { factOf, pathEnd, projectSession } from "./session-projection.ts";

describe("projectSession, against pi's own SessionManager", () => {
  for (const tree of piTrees()) {
    it(`gives the context pi gives: ${tree.name}`, () => {
      const reference = piSession.buildSessionContext(tree.entries, tree.leafId);
      const projection = projectSession(pathTo(tree.entries, tree.leafId));
      // Strictly: the same keys, those whose value is undefined included.
      expect(projection.context).toStrictEqual(reference.messages);
      expect({ model: projection.model, thinkingLevel: projection.thinkingLevel }).toEqual({
        model: reference.model,
        thinkingLevel: reference.thinkingLevel,
      });
      // What a file's reader finds without projecting the facts is the same.
      expect(pathEnd(pathTo(tree.entries, tree.leafId))).toEqual({
        model: reference.model,
        thinkingLevel: reference.thinkingLevel,
      });
      // And what the model receives: pi's convertToLlm of pi's context, ours of ours.
      expect(convertToLlm(projection.context)).toEqual(piMessages.convertToLlm(reference.messages));
    });
  }

  it("keeps a custom message's details key when the entry has none, as pi's createCustomMessage does", () => {
    const manager = piSession.SessionManager.inMemory("/tmp");
    manager.appendCustomMessageEntry("note", "no details", false);
    const entries = manager.getEntries() as SessionEntry[];
    const [fact] = projectSession(entries).context;
    expect(fact).toHaveProperty("details", undefined);
    expect(Object.keys(fact ?? {})).toContain("details");
    expect(projectSession(entries).context).toStrictEqual(piSession.buildSessionContext(entries).messages);
  });

  it("leaves out a compaction's recorded prompt with its summary when an edit leaves the compaction out", () => {
    const manager = piSession.SessionManager.inMemory("/tmp");
    manager.appendMessage({ role: "system", content: "prompt", timestamp: 1 });
    manager.appendMessage({ role: "user", content: "question", timestamp: 2 });
    const compaction = manager.appendCompaction("Asked a question.", undefined, 100);
    // pi's appendContextEdit refuses a compaction as a target, but pi reads such an edit from a file.
    const edit = {
      type: "context_edit",
      id: "edit0001",
      parentId: compaction,
      timestamp: "2026-01-01T00:00:00.000Z",
      targetId: compaction,
      replacement: null,
    };
    const entries = [...manager.getEntries(), edit] as SessionEntry[];
    expect(entries.find((entry) => entry.id === compaction)).toHaveProperty("systemMessage");
    const projection = projectSession(pathTo(entries, "edit0001"));
    expect(projection.context).toStrictEqual(piSession.buildSessionContext(entries, "edit0001").messages);
    expect(projection.context).toEqual([]);
  });

  it("says what became of each fact: compacted, edited (with both versions), omitted as a failed attempt", () => {
    const [, , , compacted, , edits] = piTrees();
    if (!compacted || !edits) throw new Error("trees missing");
    const afterCompaction = projectSession(pathTo(compacted.entries, compacted.leafId));
    expect(afterCompaction.fates.map((fate) => fate.kind)).toEqual([
      // The system prompt: pi keeps no system message from before a compaction; it reads the copy of the
      // prompt in force that the compaction recorded instead.
      "carried",
      "compacted",
      "compacted",
      "in",
      "in",
      "in", // the compaction's summary
      "in",
      "in",
    ]);
    const edited = projectSession(pathTo(edits.entries, edits.leafId));
    const kinds = edited.fates.map((fate) => fate.kind);
    expect(kinds).toEqual(["in", "edited", "edited", "in", "edited", "omitted", "in"]);
    const answer = edited.fates[2];
    if (answer?.kind !== "edited") throw new Error("not edited");
    expect(answer.original).toMatchObject({ content: [{ type: "text", text: "an answer to edit" }] });
    expect(answer.replacement).toMatchObject({
      content: [{ type: "text", text: "the answer, edited again" }],
    });
    expect(edited.fates[5]).toMatchObject({ kind: "omitted", failedAttempt: true });
  });

  it("keeps entries that are not facts as markers, in their place", () => {
    const [straight] = piTrees();
    if (!straight) throw new Error("tree missing");
    const projection = projectSession(pathTo(straight.entries, straight.leafId));
    expect(projection.markers.map((marker) => [marker.entry.type, marker.afterFact])).toEqual([
      ["model_change", 0],
      ["thinking_level_change", 0],
      ["session_info", 2],
      ["custom", 2],
    ]);
  });

  it("shows without compaction what the model would read if it had not happened", () => {
    const compacted = piTrees()[3];
    if (!compacted) throw new Error("tree missing");
    const projection = projectSession(pathTo(compacted.entries, compacted.leafId), {
      applyCompaction: false,
    });
    expect(projection.fates.every((fate) => fate.kind === "in")).toBe(true);
    expect(projection.context).toHaveLength(projection.facts.length);
  });

  it("reads a message entry without content as empty, as pi does, and any other as its own fact", () => {
    const messages = [
      { role: "system", timestamp: 1 },
      { role: "user", timestamp: 2 },
      {
        role: "assistant",
        api: "anthropic-messages",
        provider: "anthropic",
        model: "m",
        stopReason: "stop",
        timestamp: 3,
      },
      { role: "user", content: "kept as it is", timestamp: 4 },
    ];
    const entries = messages.map((message, index) => ({
      type: "message",
      id: `e${index}`,
      parentId: index === 0 ? null : `e${index - 1}`,
      timestamp: new Date(1_000 * index).toISOString(),
      message,
    })) as unknown as SessionEntry[];
    const reference = piSession.buildSessionContext(entries, "e3");
    const projection = projectSession(pathTo(entries, "e3"));
    expect(projection.context).toEqual(reference.messages);
    expect(projection.facts.map((fact) => (fact as { content?: unknown }).content)).toEqual([
      "",
      [],
      [],
      "kept as it is",
    ]);
    // A message with content is its own fact; one read as empty is made once and kept for its entry.
    expect(factOf(entries[3] as SessionEntry)).toBe(messages[3]);
    expect(factOf(entries[1] as SessionEntry)).toBe(projection.facts[1]);
    expect(projection.facts[1]).not.toBe(messages[1]);
  });
});
