import { describe, expect, it, vi } from "vitest";
import { ListSearch } from "./list-search.svelte.ts";

function source(texts: readonly string[]) {
  return { count: texts.length, textOf: (index: number) => texts[index] ?? "" };
}

describe("a list's search", () => {
  it("counts the matching rows and steps through them, from a selected row, wrapping around", async () => {
    const search = new ListSearch();
    search.setSource(source(["user: hi", "toolResult read_file", "assistant", "toolResult read_file", "x"]));
    search.setTyped("READ_FILE");
    await search.settled();
    expect(search.matches).toEqual([1, 3]);
    expect(search.status).toBe("2 matches");
    expect(search.next()).toBe(1);
    expect(search.status).toBe("1 of 2");
    expect(search.next(1)).toBe(3);
    expect(search.status).toBe("2 of 2");
    expect(search.next(3)).toBe(1);
    expect(search.previous(1)).toBe(3);
    // From a row selected elsewhere: the next match after it.
    expect(search.next(2)).toBe(3);
    expect(search.isMatch(3)).toBe(true);
    expect(search.isMatch(2)).toBe(false);
  });

  it("says when nothing matches, and clears to no query at all", async () => {
    const search = new ListSearch();
    search.setSource(source(["a", "b"]));
    search.setTyped("zzz");
    await search.settled();
    expect(search.status).toBe("No matches");
    expect(search.next()).toBe(-1);
    search.clear();
    expect(search.query).toBeUndefined();
    expect(search.matches).toEqual([]);
    expect(search.status).toBe("");
  });

  it("reads 100,000 rows in slices: the first matches come before the scan is over", async () => {
    const texts = Array.from({ length: 100_000 }, (_, index) => `fact ${index} ${"lorem ipsum ".repeat(20)}`);
    const search = new ListSearch();
    search.setSource(source(texts));
    search.setTyped("fact 9");
    // The first slice ran at once and stopped: the rest waits for later tasks.
    expect(search.scanning).toBe(true);
    expect(search.matches.length).toBeGreaterThan(0);
    expect(search.matches.length).toBeLessThan(11_111);
    expect(search.status).toMatch(/found so far…$/);
    await search.settled();
    expect(search.scanning).toBe(false);
    expect(search.matches).toHaveLength(11_111);
  });

  it("goes on to the next slice without a timer: nested timers wait 4 ms each, idle between slices", async () => {
    const texts = Array.from({ length: 100_000 }, (_, index) => `fact ${index} ${"lorem ipsum ".repeat(20)}`);
    const search = new ListSearch();
    search.setSource(source(texts));
    const timers = vi.spyOn(globalThis, "setTimeout");
    try {
      search.setTyped("fact 9");
      expect(search.scanning).toBe(true);
      await search.settled();
      expect(search.matches).toHaveLength(11_111);
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  it("drops a scan when the query changes, and keeps the match gone to when the rows are read again", async () => {
    const texts = Array.from({ length: 50_000 }, (_, index) => (index % 1_000 === 0 ? "needle" : "hay"));
    const search = new ListSearch();
    search.setSource(source(texts));
    search.setTyped("hay");
    search.setTyped("needle");
    await search.settled();
    expect(search.matches).toHaveLength(50);
    expect(search.next(1_500)).toBe(2_000);
    search.setSource(source([...texts, "needle"]));
    await search.settled();
    expect(search.matches).toHaveLength(51);
    expect(search.status).toBe("3 of 51");
  });

  it("says a cut query is cut", async () => {
    const search = new ListSearch();
    search.setSource(source(["a"]));
    search.setTyped("a".repeat(1_000_000));
    await search.settled();
    expect(search.status).toBe("No matches (query cut to 1,000 characters)");
  });
});
