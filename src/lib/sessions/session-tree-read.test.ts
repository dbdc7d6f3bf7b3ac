import { describe, expect, it } from "vitest";
import { pathTo } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { formatProblems } from "./import-problems.ts";
import { readSessionTree, type RawEntry } from "./session-tree-read.ts";

const at = "2026-01-01T00:00:00.000Z";
const user = (text: string) => ({ role: "user", content: text, timestamp: 1 });
const message = (id: string, parentId: string | null, text = id) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: user(text),
});

/** Entries as the lines of a file: the header is line 1, so entries start on line 2. */
function lines(...values: unknown[]): RawEntry[] {
  return values.map((value, index) => ({ line: index + 2, value }));
}

describe("reading a session tree", () => {
  it("keeps a sound tree exactly, every branch, and continues from the last entry", () => {
    const values = [
      message("a", null),
      message("b", "a"),
      message("c", "b"),
      message("d", "a"),
      { type: "label", id: "e", parentId: "d", timestamp: at, targetId: "b", label: "here" },
    ];
    const read = readSessionTree(lines(...values));
    expect(read.problems).toEqual([]);
    expect(read.notes).toEqual([]);
    expect(read.entries.map(entryForFile)).toEqual(values);
    expect(read.leafId).toBe("e");
  });

  it("keeps entry types it does not know exactly as they were, and says so by type, line and id", () => {
    const later = { type: "checkpoint", id: "k1", parentId: "a", timestamp: at, files: ["x"] };
    const again = { type: "checkpoint", id: "k2", parentId: "k1", timestamp: at, files: [] };
    const read = readSessionTree(lines(message("a", null), later, again, message("b", "k2")));
    expect(read.problems).toEqual([]);
    expect(read.entries.map(entryForFile)).toEqual([message("a", null), later, again, message("b", "k2")]);
    expect(read.entries[1]).toMatchObject({ type: "unknown", id: "k1", parentId: "a" });
    expect(read.notes).toEqual([
      'kept, not understood: 2 entries of type "checkpoint" (lines 3 and 4: entries k1, k2); the model does not read them, and an export writes them back as they were',
    ]);
  });

  it("reads the next entries of a live session against those it has: their parents are there", () => {
    const read = readSessionTree(lines(message("c", "b"), message("d", "c"), message("x", "gone")), {
      knownIds: new Set(["a", "b"]),
    });
    expect(read.entries.map((entry) => [entry.id, entry.parentId])).toEqual([
      ["c", "b"],
      ["d", "c"],
      ["x", null],
    ]);
    expect(formatProblems(read.problems)).toMatch(/its parent gone is not in the file/);
    expect(read.problems).toHaveLength(1);
  });

  it("a missing parent: the entry and everything below it become a conversation of their own", () => {
    const read = readSessionTree(
      lines(message("a", null), message("b", "a"), message("c", "gone"), message("d", "c")),
    );
    expect(formatProblems(read.problems)).toBe(
      "line 4, entry c: its parent gone is not in the file; it and the 1 entry below it are kept as a conversation of their own (a new root), as pi reads them",
    );
    expect(read.entries.find((entry) => entry.id === "c")?.parentId).toBeNull();
    expect(pathTo(read.entries, read.leafId).map((entry) => entry.id)).toEqual(["c", "d"]);
  });

  it("a cycle: cut at its entry that comes first in the file, naming the loop", () => {
    const read = readSessionTree(
      lines(message("a", null), message("x", "z"), message("y", "x"), message("z", "y"), message("w", "y")),
    );
    expect(read.problems).toEqual([
      {
        line: 3,
        entryId: "x",
        message:
          "its parents loop back to it (x → z → y → x), which pi would follow forever; the loop is cut here, and it and the 3 entries below it start a conversation of their own",
      },
    ]);
    expect(read.entries.find((entry) => entry.id === "x")?.parentId).toBeNull();
    // Every entry now reaches a root.
    for (const entry of read.entries) expect(pathTo(read.entries, entry.id)[0]?.parentId).toBeNull();
  });

  it("an entry that is its own parent is a loop of one", () => {
    const read = readSessionTree(lines(message("a", null), message("s", "s")));
    expect(read.problems[0]).toMatchObject({
      line: 3,
      entryId: "s",
      message: expect.stringMatching(/\(s → s\)/),
    });
  });

  it("a second root is kept as pi reads it, and named", () => {
    const read = readSessionTree(lines(message("a", null), message("b", "a"), message("r", null)));
    expect(read.problems).toEqual([]);
    expect(read.notes).toEqual([
      "line 4, entry r: a second root (the first is entry a, line 2), a conversation started over from nothing, as pi starts one when the first message is edited; kept as it is",
    ]);
    expect(read.leafId).toBe("r");
  });

  it("a compaction whose first kept entry is missing, or on another branch, is kept and named", () => {
    const compaction = (id: string, parentId: string, firstKeptEntryId: string) => ({
      type: "compaction",
      id,
      parentId,
      timestamp: at,
      summary: "s",
      firstKeptEntryId,
      tokensBefore: 1,
    });
    const read = readSessionTree(
      lines(
        message("a", null),
        message("b", "a"),
        message("side", "a"),
        compaction("c1", "b", "nowhere"),
        compaction("c2", "c1", "side"),
        compaction("c3", "c2", "b"),
        compaction("c4", "c3", "c4"),
      ),
    );
    expect(read.problems.map((problem) => [problem.line, problem.entryId, problem.message])).toEqual([
      [
        5,
        "c1",
        "its first kept entry, nowhere, is not in the file; kept as it is: as in pi, the model reads the summary and nothing from before it",
      ],
      [
        6,
        "c2",
        "its first kept entry, side, is not on the compaction's branch; kept as it is: as in pi, the model reads the summary and nothing from before it",
      ],
    ]);
    expect(read.entries).toHaveLength(7);
  });

  it("an entry of a known type with wrong fields is kept as it was, not understood", () => {
    const broken = { type: "model_change", id: "m", parentId: "a", timestamp: at, provider: 42 };
    const read = readSessionTree(lines(message("a", null), broken, message("b", "m")));
    expect(read.problems).toEqual([
      {
        line: 3,
        entryId: "m",
        message:
          "the model_change entry is not valid (modelId: missing; provider: expected string, got integer); kept as it was, but not understood: the model does not read it",
      },
    ]);
    expect(read.entries.map(entryForFile)).toEqual([message("a", null), broken, message("b", "m")]);
    expect(read.leafId).toBe("b");
  });

  it("skips what is not an entry, gives an entry without an id one, and reads a parent that is no id as a root", () => {
    const read = readSessionTree(
      lines(
        message("a", null),
        42,
        { id: "t", parentId: "a" },
        { type: "message", parentId: "a", timestamp: at, message: user("no id") },
        { ...message("p", "a"), parentId: 7 },
        message("b", "a"),
        { type: "message", parentId: "b", timestamp: at, message: user("no id, last") },
      ),
    );
    const [a, noId, p, b, last] = read.entries;
    expect(read.entries).toHaveLength(5);
    expect(formatProblems(read.problems)).toBe(
      [
        "line 3: not a JSON object; skipped",
        "line 4, entry t: the entry has no type; skipped",
        `line 5, entry ${noId?.id}: the message entry has no id; pi reaches it only as the file's last entry, and this import gives it the id ${noId?.id}`,
        "line 6, entry p: its parentId, 7, is not an entry id; it starts a conversation of its own (a root), as pi reads it",
        `line 8, entry ${last?.id}: the message entry has no id; pi reaches it only as the file's last entry, and this import gives it the id ${last?.id}`,
      ].join("; "),
    );
    expect([a?.id, p?.id, b?.id]).toEqual(["a", "p", "b"]);
    expect(p?.parentId).toBeNull();
    // pi opens the file at its last entry, id or not: so does the import.
    expect(read.leafId).toBe(last?.id);
    expect(pathTo(read.entries, read.leafId).map((entry) => entry.id)).toEqual(["a", "b", last?.id]);
  });

  it("an id used twice: the later entry wins, as in pi's index, and the earlier is named", () => {
    const read = readSessionTree(
      lines(
        message("a", null),
        message("b", "a", "first b"),
        message("b", "a", "second b"),
        message("c", "b"),
      ),
    );
    expect(formatProblems(read.problems)).toBe(
      "line 3, entry b: the same id is used again on line 4; pi reads the later entry, and so does this import: this one is skipped",
    );
    expect(
      pathTo(read.entries, read.leafId).map((entry) => entry.type === "message" && entry.message),
    ).toEqual([user("a"), user("second b"), user("c")]);
  });

  it("refuses values nested too deeply for storage, naming the entry", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < 300; level++) deep = { next: deep };
    const read = readSessionTree(
      lines(message("a", null), {
        type: "custom",
        id: "deep",
        parentId: "a",
        timestamp: at,
        customType: "x",
        data: deep,
      }),
    );
    expect(read.problems).toEqual([
      {
        line: 3,
        entryId: "deep",
        message:
          "the entry nests more than 200 levels deep; the playground accepts values up to 200 levels; skipped; it was the file's last entry, so the session continues from entry a (line 2), the last one kept",
      },
    ]);
  });

  it("names places in a JSON document by their path", () => {
    const read = readSessionTree(
      [message("a", null), message("b", "missing")].map((value, index) => ({
        line: index + 1,
        place: `entries[${index}]`,
        value,
      })),
      { leafIsLast: false },
    );
    expect(formatProblems(read.problems)).toMatch(
      /^entries\[1\], entry b: its parent missing is not in the file/,
    );
  });
});
