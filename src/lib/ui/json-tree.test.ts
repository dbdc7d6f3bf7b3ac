import { describe, expect, it } from "vitest";
import {
  CHILDREN_PAGE,
  EXPAND_ROW_BUDGET,
  STRING_PREVIEW_CHARS,
  accessorPath,
  findMatches,
  highlightPieces,
  keyLabel,
  openToDepth,
  parseJsonText,
  revealPath,
  treeKey,
  valueAt,
  visibleRows,
  type JsonValue,
  type NodeRow,
  type TreeRow,
} from "./json-tree.ts";

const payload: JsonValue = {
  model: "claude",
  messages: [
    { role: "user", content: [{ type: "text", text: "Hello model" }] },
    { role: "assistant", content: "Hi" },
  ],
  headers: { "x-api-key": "[redacted]", 'we"ird\nkey</script>': 1 },
  stream: true,
  stop: null,
};

const ids = (rows: readonly TreeRow[]) => rows.map((row) => row.id);

describe("accessor paths", () => {
  it("writes paths as JavaScript reads them, quoting keys that are not identifiers", () => {
    expect(accessorPath(["messages", 3, "content", 0, "text"])).toBe("messages[3].content[0].text");
    expect(accessorPath(["headers", "x-api-key"])).toBe('headers["x-api-key"]');
    expect(accessorPath([0, "a"])).toBe("[0].a");
    expect(accessorPath(["$ok", "_x1"])).toBe("$ok._x1");
    expect(accessorPath(["3d"])).toBe('["3d"]');
    expect(accessorPath(['we"ird\nkey</script>'])).toBe('["we\\"ird\\nkey</script>"]');
    expect(accessorPath([""])).toBe('[""]');
    expect(accessorPath([])).toBe("");
  });

  it("labels plain keys as they are and quotes keys with quotes, spaces or line breaks", () => {
    expect(keyLabel("x-api-key")).toBe("x-api-key");
    expect(keyLabel(4)).toBe("4");
    expect(keyLabel("a b")).toBe('"a b"');
    expect(keyLabel("line\nbreak")).toBe('"line\\nbreak"');
  });

  it("finds the value at a path, and nothing where a path leads nowhere", () => {
    expect(valueAt(payload, ["messages", 0, "content", 0, "text"])).toBe("Hello model");
    expect(valueAt(payload, ["messages", 9])).toBeUndefined();
    expect(valueAt(payload, ["model", "length"])).toBeUndefined();
    expect(valueAt(payload, ["constructor"])).toBeUndefined();
  });
});

describe("visible rows", () => {
  it("shows only the root when nothing is open, and the children of each open node in order", () => {
    expect(ids(visibleRows(payload, { open: new Set(), shown: new Map() }))).toEqual([""]);
    const rows = visibleRows(payload, { open: new Set(["", "messages"]), shown: new Map() });
    expect(ids(rows)).toEqual([
      "",
      "model",
      "messages",
      "messages[0]",
      "messages[1]",
      "headers",
      "stream",
      "stop",
    ]);
    const messages = rows[2] as NodeRow;
    expect(messages).toMatchObject({
      type: "array",
      size: 2,
      open: true,
      depth: 1,
      position: 2,
      siblings: 5,
    });
    expect(rows[5]).toMatchObject({ type: "object", size: 2, open: false });
    expect(rows[1]).toMatchObject({ type: "string", text: '"claude"', cut: 0 });
    expect(rows[7]).toMatchObject({ type: "null", text: "null" });
  });

  it("shows a page of children at a time, then a row offering the rest", () => {
    const big: JsonValue = Array.from({ length: 250 }, (_, index) => index);
    const first = visibleRows(big, { open: new Set([""]), shown: new Map() });
    expect(first).toHaveLength(1 + CHILDREN_PAGE + 1);
    expect(first.at(-1)).toMatchObject({ kind: "more", parent: "", shown: CHILDREN_PAGE, total: 250 });
    const all = visibleRows(big, { open: new Set([""]), shown: new Map([["", 300]]) });
    expect(all).toHaveLength(251);
    expect(all.at(-1)?.kind).toBe("node");
  });

  it("shows the start of a long string and how much is left out", () => {
    const rows = visibleRows(
      { long: "x".repeat(STRING_PREVIEW_CHARS + 500) },
      { open: new Set([""]), shown: new Map() },
    );
    expect(rows[1]).toMatchObject({ cut: 500 });
    expect((rows[1] as { text: string }).text).toHaveLength(STRING_PREVIEW_CHARS + 2);
  });

  it("walks a very deep value without overflowing the stack", () => {
    let deep: JsonValue = "bottom";
    const open = new Set<string>();
    const segments: string[] = [];
    for (let level = 0; level < 1_000; level++) deep = { a: deep };
    for (let level = 0; level < 1_000; level++) {
      open.add(accessorPath(segments));
      segments.push("a");
    }
    const rows = visibleRows(deep, { open, shown: new Map() });
    expect(rows).toHaveLength(1_001);
    expect(rows.at(-1)).toMatchObject({ type: "string", depth: 1_000 });
    expect(findMatches(deep, "bottom").matches).toHaveLength(1);
  });
});

describe("opening to a depth", () => {
  it("opens the root and its children by default depth 2, not deeper", () => {
    const open = openToDepth(payload, 2);
    expect([...open].sort()).toEqual(["", "headers", "messages"]);
  });

  it("stops opening once the rows would pass the budget, upper levels first", () => {
    const wide: JsonValue = Array.from({ length: 100 }, () =>
      Array.from({ length: 100 }, (_, index) => index),
    );
    const open = openToDepth(wide, Infinity);
    const rows = visibleRows(wide, { open, shown: new Map() });
    expect(rows.length).toBeLessThanOrEqual(EXPAND_ROW_BUDGET);
    expect(open.has("")).toBe(true);
    expect(open.has("[0]")).toBe(true);
    expect(open.has("[99]")).toBe(false);
  });
});

describe("search", () => {
  it("finds keys and primitive values ignoring case, in reading order, but not array indexes", () => {
    const { matches, complete } = findMatches(payload, "HELLO");
    expect(complete).toBe(true);
    expect(matches.map((match) => match.id)).toEqual(["messages[0].content[0].text"]);
    expect(
      findMatches(payload, "content").matches.map((match) => [match.id, match.inKey, match.inValue]),
    ).toEqual([
      ["messages[0].content", true, false],
      ["messages[1].content", true, false],
    ]);
    expect(findMatches(payload, "true").matches.map((match) => match.id)).toEqual(["stream"]);
    expect(findMatches(payload, "0").matches).toEqual([]);
    expect(findMatches(payload, "").matches).toEqual([]);
  });

  it("stops at its limit and says it did", () => {
    const many: JsonValue = Array.from({ length: 50 }, () => "same");
    const { matches, complete } = findMatches(many, "same", 10);
    expect(matches).toHaveLength(10);
    expect(complete).toBe(false);
  });

  it("reveals a match: opens its ancestors and pages far enough to show it", () => {
    const big: JsonValue = {
      list: Array.from({ length: 500 }, (_, index) => ({ n: index === 430 ? "needle" : "hay" })),
    };
    const [match] = findMatches(big, "needle").matches;
    expect(match?.id).toBe("list[430].n");
    const view = revealPath(big, match!.segments, { open: new Set([""]), shown: new Map() });
    expect([...view.open].sort()).toEqual(["", "list", "list[430]"]);
    expect(view.shown.get("list")).toBe(500);
    expect(ids(visibleRows(big, view))).toContain("list[430].n");
  });

  it("cuts a text into highlighted pieces", () => {
    expect(highlightPieces("Hello hello", "hello")).toEqual([
      { text: "Hello", hit: true },
      { text: " ", hit: false },
      { text: "hello", hit: true },
    ]);
    expect(highlightPieces("abc", "")).toEqual([{ text: "abc", hit: false }]);
    expect(highlightPieces("abc", "x")).toEqual([{ text: "abc", hit: false }]);
  });
});

describe("keys in the tree", () => {
  const rows = visibleRows(payload, { open: new Set(["", "messages"]), shown: new Map() });
  const at = (id: string) => rows.findIndex((row) => row.id === id);

  it("moves by row and to the ends", () => {
    expect(treeKey("ArrowDown", rows, 0)).toEqual({ kind: "move", index: 1 });
    expect(treeKey("ArrowUp", rows, 0)).toEqual({ kind: "move", index: 0 });
    expect(treeKey("End", rows, 0)).toEqual({ kind: "move", index: rows.length - 1 });
    expect(treeKey("Home", rows, 4)).toEqual({ kind: "move", index: 0 });
  });

  it("opens and closes with Right and Left, and moves into a child or up to the parent", () => {
    expect(treeKey("ArrowRight", rows, at("headers"))).toEqual({ kind: "open", id: "headers" });
    expect(treeKey("ArrowRight", rows, at("messages"))).toEqual({ kind: "move", index: at("messages[0]") });
    expect(treeKey("ArrowLeft", rows, at("messages"))).toEqual({ kind: "close", id: "messages" });
    expect(treeKey("ArrowLeft", rows, at("messages[1]"))).toEqual({ kind: "move", index: at("messages") });
    expect(treeKey("ArrowRight", rows, at("model"))).toBeUndefined();
    expect(treeKey("Enter", rows, at("headers"))).toEqual({ kind: "open", id: "headers" });
    expect(treeKey(" ", rows, at("messages"))).toEqual({ kind: "close", id: "messages" });
    expect(treeKey("x", rows, 0)).toBeUndefined();
  });
});

describe("payload text", () => {
  it("parses JSON, and says why text that is not JSON cannot be a tree", () => {
    expect(parseJsonText('{"a":[1]}')).toEqual({ value: { a: [1] } });
    expect(parseJsonText('{"a":[1')).toHaveProperty("error");
    expect(parseJsonText("12n")).toHaveProperty("error");
  });
});
