import { describe, expect, it } from "vitest";
import {
  compileQuery,
  highlightPieces,
  lineWithMatch,
  MAX_QUERY_LENGTH,
  MAX_SEARCHED_LENGTH,
  matchesText,
  matchPosition,
  matchRanges,
  scanSlice,
  stepMatch,
  type ScanProgress,
  type SearchQuery,
} from "./text-search.ts";

function query(text: string): SearchQuery {
  const compiled = compileQuery(text);
  if (!compiled) throw new Error(`no query for ${JSON.stringify(text)}`);
  return compiled;
}

describe("a search query", () => {
  it("is nothing when empty or only spaces", () => {
    expect(compileQuery("")).toBeUndefined();
    expect(compileQuery("   \n")).toBeUndefined();
  });

  it("finds its text in any case, with Unicode case folding", () => {
    expect(matchesText(query("READ_file"), "toolResult read_file: ok")).toBe(true);
    expect(matchesText(query("édition"), "Une ÉDITION")).toBe(true);
    expect(matchesText(query("ΣΟΦΙΑ"), "σοφια")).toBe(true);
    expect(matchesText(query("write"), "read_file")).toBe(false);
  });

  it("takes regular expression characters as text", () => {
    const metacharacters = ".*+?^$" + "{}()|[]\\/-";
    expect(matchesText(query(metacharacters), `before ${metacharacters} after`)).toBe(true);
    expect(matchesText(query(".*"), "anything at all")).toBe(false);
    expect(matchesText(query("a|b"), "a")).toBe(false);
    expect(matchesText(query("(a+)+$"), "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")).toBe(false);
    expect(matchRanges(query("[x]"), "a[x]b[x]")).toEqual([
      { start: 1, end: 4 },
      { start: 5, end: 8 },
    ]);
  });

  it("is cut to its longest length, and says so (a pasted megabyte)", () => {
    const huge = compileQuery("ab".repeat(500_000));
    expect(huge?.cut).toBe(true);
    expect(huge?.text).toHaveLength(MAX_QUERY_LENGTH);
    expect(compileQuery("short")?.cut).toBe(false);
    expect(matchesText(query("x".repeat(2 * MAX_QUERY_LENGTH)), "x".repeat(MAX_QUERY_LENGTH))).toBe(true);
  });

  it("survives a cut through a surrogate pair and finds emoji", () => {
    const emoji = "😀".repeat(MAX_QUERY_LENGTH);
    expect(compileQuery(emoji)).toBeDefined();
    expect(matchesText(query("🦊"), "a 🦊 here")).toBe(true);
    expect(matchRanges(query("🦊"), "a 🦊 here")).toEqual([{ start: 2, end: 4 }]);
  });

  it("reads the first stretch of a long text only", () => {
    const long = `${"x".repeat(MAX_SEARCHED_LENGTH)}needle`;
    expect(matchesText(query("needle"), long)).toBe(false);
    expect(matchesText(query("needle"), `needle${long}`)).toBe(true);
  });
});

describe("highlighted pieces", () => {
  it("mark every place the query is, keeping the text's own case", () => {
    expect(highlightPieces("Read the README", query("read"))).toEqual([
      { text: "Read", match: true },
      { text: " the ", match: false },
      { text: "READ", match: true },
      { text: "ME", match: false },
    ]);
  });

  it("are the whole text unmarked without a query or a match", () => {
    expect(highlightPieces("text", undefined)).toEqual([{ text: "text", match: false }]);
    expect(highlightPieces("text", query("zzz"))).toEqual([{ text: "text", match: false }]);
    expect(highlightPieces("", query("a"))).toEqual([{ text: "", match: false }]);
  });

  it("join back into the text, whatever it holds", () => {
    const text = "İstanbul ß straße STRASSE 😀 ǅ";
    for (const typed of ["i", "ß", "s", "😀", "ǆ", "str"]) {
      const pieces = highlightPieces(text, query(typed));
      expect(pieces.map((piece) => piece.text).join("")).toBe(text);
    }
  });
});

describe("a row's line with its match", () => {
  it("is the line itself when the match is in it", () => {
    expect(lineWithMatch("read_file: ok", "read_file: ok and more", query("ok"), 20)).toBe("read_file: ok");
  });

  it("is the stretch around the match when the match is past the line", () => {
    const whole = `${"a".repeat(300)} the needle is here ${"b".repeat(300)}`;
    const line = lineWithMatch(whole.slice(0, 40), whole, query("needle"), 40);
    expect(line).toContain("needle");
    expect(line.startsWith("…")).toBe(true);
    expect(line.endsWith("…")).toBe(true);
    expect(line.length).toBeLessThanOrEqual(42);
  });
});

describe("a scan over many rows", () => {
  it("stops when the slice is over and goes on from there", () => {
    const texts = Array.from({ length: 1_000 }, (_, index) => (index % 10 === 0 ? `hit ${index}` : "miss"));
    const progress: ScanProgress = { matches: [], next: 0 };
    let asked = 0;
    const stopEveryTime = () => ++asked > 0;
    expect(
      scanSlice(query("HIT"), texts.length, (index) => texts[index] ?? "", progress, stopEveryTime),
    ).toBe(false);
    expect(progress.next).toBe(64);
    expect(progress.matches).toEqual([0, 10, 20, 30, 40, 50, 60]);
    // Slices of 64 rows: 15 stop early (the first above among them), the 16th reads the last 40.
    let stopped = 1;
    while (!scanSlice(query("HIT"), texts.length, (index) => texts[index] ?? "", progress, stopEveryTime))
      stopped += 1;
    expect(stopped).toBe(15);
    expect(progress.next).toBe(1_000);
    expect(progress.matches).toHaveLength(100);
    expect(progress.matches.at(-1)).toBe(990);
  });
});

describe("a scan over rows of several texts", () => {
  it("matches a row when one of its texts holds the query", () => {
    const texts: (readonly string[])[] = [
      ["user", "hello"],
      ["toolResult", "read_file: a"],
      ["user", "x"],
    ];
    const progress: ScanProgress = { matches: [], next: 0 };
    expect(
      scanSlice(
        query("user"),
        3,
        (index) => texts[index] ?? [],
        progress,
        () => false,
      ),
    ).toBe(true);
    expect(progress.matches).toEqual([0, 2]);
    const again: ScanProgress = { matches: [], next: 0 };
    scanSlice(
      query("READ_FILE"),
      3,
      (index) => texts[index] ?? [],
      again,
      () => false,
    );
    expect(again.matches).toEqual([1]);
  });
});

describe("stepping through matches", () => {
  const matches = [3, 8, 20];

  it("goes to the next match after a row, wrapping at the end", () => {
    expect(stepMatch(matches, -1, 1)).toBe(0);
    expect(stepMatch(matches, 3, 1)).toBe(1);
    expect(stepMatch(matches, 10, 1)).toBe(2);
    expect(stepMatch(matches, 20, 1)).toBe(0);
  });

  it("goes to the match before a row, wrapping at the start", () => {
    expect(stepMatch(matches, 8, -1)).toBe(0);
    expect(stepMatch(matches, 100, -1)).toBe(2);
    expect(stepMatch(matches, 3, -1)).toBe(2);
    expect(stepMatch(matches, 0, -1)).toBe(2);
  });

  it("finds nothing without matches, and a row's place among them", () => {
    expect(stepMatch([], 0, 1)).toBe(-1);
    expect(stepMatch([], 0, -1)).toBe(-1);
    expect(matchPosition(matches, 8)).toBe(1);
    expect(matchPosition(matches, 9)).toBe(-1);
    expect(matchPosition([], 0)).toBe(-1);
  });
});
