import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { joinPieces, textCharCodeAt, textSlice } from "./joined-text.ts";
import { shownText } from "./text-pieces.ts";
import { wholeReads } from "./whole-reads.test-support.ts";

/** Pieces of 70,000 characters or so (past the length a text is remembered from), surrogate pairs among them. */
const bigPieces = fc
  .array(fc.tuple(fc.constantFrom("a", "é", "😀", "\n", '"'), fc.integer({ min: 0, max: 40_000 })), {
    minLength: 2,
    maxLength: 4,
  })
  .map((parts) => parts.map(([character, extra]) => character.repeat(30_000 + extra)));

afterEach(() => vi.restoreAllMocks());

describe("a text joined from pieces", () => {
  it("is the pieces joined, and reads as the string it is, wherever a slice falls", () => {
    fc.assert(
      fc.property(bigPieces, fc.nat(), fc.nat(), (pieces, a, b) => {
        const holder = {};
        const text = joinPieces(pieces, holder);
        const whole = pieces.join("");
        expect(text).toBe(whole);
        const [start, end] = [a % (whole.length + 1), b % (whole.length + 1)].sort((x, y) => x - y) as [
          number,
          number,
        ];
        expect(textSlice(text, start, end)).toBe(whole.slice(start, end));
        expect(textCharCodeAt(text, start)).toBe(whole.charCodeAt(start));
        expect(textCharCodeAt(text, whole.length)).toBeNaN();
      }),
      { numRuns: 60 },
    );
  });

  it("is read from its pieces, never whole: sliced, a character read, its first page shown", () => {
    const pieces = ["a".repeat(150_000), "b".repeat(150_000), "c".repeat(150_000)];
    const text = joinPieces(pieces, pieces);
    let shown: { pieces: string[]; hidden: number } | undefined;
    expect(
      wholeReads(text, () => {
        expect(textSlice(text, 149_999, 150_001)).toBe("ab");
        expect(textCharCodeAt(text, 300_000)).toBe("c".charCodeAt(0));
        shown = shownText(text, 1, 200_000, 4_000);
      }),
    ).toBe(0);
    expect(shown?.pieces.join("")).toBe(`${"a".repeat(150_000)}${"b".repeat(50_000)}`);
    expect(shown?.hidden).toBe(250_000);
  });

  it("is read as a string when it was not joined here, or is short", () => {
    const text = "x".repeat(100_000);
    expect(wholeReads(text, () => textSlice(text, 0, 10))).toBe(1);
    const short = joinPieces(["ab", "cd"], {});
    expect(textSlice(short, 1, 3)).toBe("bc");
  });
});
