import { describe, expect, it } from "vitest";
import { ListCursor, listKey } from "./list-cursor.svelte.ts";

describe("list keys", () => {
  it("move with arrows and j/k, by pages, to the ends, and stop at the edges", () => {
    expect(listKey("ArrowDown", 3, 10, 5)).toEqual({ kind: "move", index: 4 });
    expect(listKey("j", 9, 10, 5)).toEqual({ kind: "move", index: 9 });
    expect(listKey("k", 0, 10, 5)).toEqual({ kind: "move", index: 0 });
    expect(listKey("ArrowUp", 4, 10, 5)).toEqual({ kind: "move", index: 3 });
    expect(listKey("PageDown", 7, 10, 5)).toEqual({ kind: "move", index: 9 });
    expect(listKey("PageUp", 7, 10, 5)).toEqual({ kind: "move", index: 2 });
    expect(listKey("Home", 7, 10, 5)).toEqual({ kind: "move", index: 0 });
    expect(listKey("End", 2, 10, 5)).toEqual({ kind: "move", index: 9 });
  });

  it("choose the row under the cursor with Enter or Space, and ignore other keys", () => {
    expect(listKey("Enter", 2, 10, 5)).toEqual({ kind: "choose", index: 2 });
    expect(listKey(" ", 0, 10, 5)).toEqual({ kind: "choose", index: 0 });
    expect(listKey("Enter", -1, 10, 5)).toBeUndefined();
    expect(listKey("x", 2, 10, 5)).toBeUndefined();
    expect(listKey("ArrowDown", -1, 0, 5)).toBeUndefined();
  });

  it("start from nothing: down goes to the first row, up to the last", () => {
    expect(listKey("ArrowDown", -1, 10, 5)).toEqual({ kind: "move", index: 0 });
    expect(listKey("ArrowUp", -1, 10, 5)).toEqual({ kind: "move", index: 9 });
  });
});

describe("list cursor", () => {
  it("enters at the selected row, else at the first row in view, and keeps its place after that", () => {
    const cursor = new ListCursor();
    cursor.enter(-1, 12, 40);
    expect(cursor.active).toBe(12);
    cursor.moveTo(15);
    cursor.enter(3, 0, 40);
    expect(cursor.active).toBe(15);

    const selected = new ListCursor();
    selected.enter(7, 0, 40);
    expect(selected.active).toBe(7);
  });

  it("comes back inside the list when the list got shorter", () => {
    const cursor = new ListCursor();
    cursor.moveTo(30);
    cursor.enter(-1, 2, 10);
    expect(cursor.active).toBe(2);
  });
});
