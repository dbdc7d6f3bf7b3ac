import { describe, expect, it } from "vitest";
import { pathTo, type SessionEntry } from "./entries.ts";
import { customEntry as entry } from "./entries.test-support.ts";

const ids = (path: readonly SessionEntry[]) => path.map((each) => each.id);

describe("pathTo", () => {
  it("follows parents from the leaf to the root, the last entry of an id standing for it", () => {
    const entries = [entry("a", null), entry("b", "a"), entry("a", "b"), entry("c", "a")];
    // "a" is the third entry, whose parent is "b", whose parent "a" is itself again: the loop ends there.
    expect(ids(pathTo(entries, "c"))).toEqual(["b", "a", "c"]);
    expect(ids(pathTo(entries, undefined))).toEqual(["b", "a", "c"]);
  });

  it("ends a cycle where it closes, whatever its length", () => {
    const count = 1_000;
    const entries = Array.from({ length: count }, (_, index) =>
      entry(`e${index}`, `e${(index + count - 1) % count}`),
    );
    const path = pathTo(entries, "e5");
    expect(path).toHaveLength(count);
    expect(ids(path).slice(-3)).toEqual(["e3", "e4", "e5"]);
    expect(ids(path)[0]).toBe("e6");
  });

  it("is empty before the first entry and falls back to the last entry for an unknown leaf", () => {
    const entries = [entry("a", null), entry("b", "a"), entry("x", null)];
    expect(pathTo(entries, null)).toEqual([]);
    expect(ids(pathTo(entries, "nowhere"))).toEqual(["x"]);
    expect(ids(pathTo(new Map(entries.map((each) => [each.id, each])), "b"))).toEqual(["a", "b"]);
  });
});
