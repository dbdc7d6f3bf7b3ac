import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinPieces } from "../ui/joined-text.ts";
import { wholeReads } from "../ui/whole-reads.test-support.ts";
import { jsonLike } from "../../shared/json-values.test-support.ts";
import { holdsLongString, jsonInSlices, type SliceOptions } from "./json-in-slices.ts";

/** Run the generator to its end: its pieces joined, and how many times it yielded. */
function run(value: unknown, options?: SliceOptions): { json: string | undefined; yields: number } {
  const work = jsonInSlices(value, options);
  let yields = 0;
  for (;;) {
    const step = work.next();
    if (step.done) return { json: step.value?.join(""), yields };
    yields++;
  }
}

const value = jsonLike();

describe("JSON made in slices", () => {
  it("is byte for byte JSON.stringify's, whatever the strings and wherever slices fall", () => {
    fc.assert(
      fc.property(
        value,
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 5 }),
        (input, longAt, sliceChars) => {
          expect(run(input, { longAt, sliceChars }).json).toBe(JSON.stringify(input));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("keeps a surrogate pair whole across a slice's end", () => {
    // Slices of 3 characters would end between the pair's halves at 3: "ab\ud83d|\ude00…".
    const input = { text: "ab\u{1F600}cd\u{1F600}\ud800" };
    const { json } = run(input, { longAt: 4, sliceChars: 3 });
    expect(json).toBe(JSON.stringify(input));
    expect(json).toContain("\u{1F600}");
  });

  it("yields once per slice of each long string, and not at all for a value without one", () => {
    const long = "y".repeat(10_000);
    expect(
      run({ content: [{ text: long }, { text: long }] }, { longAt: 1_000, sliceChars: 1_000 }).yields,
    ).toBe(20);
    expect(run({ content: "short" }, { longAt: 1_000, sliceChars: 1_000 }).yields).toBe(0);
    // A long string in a key is not sliced (only values are), and the JSON is still right.
    const keyed = { [long]: 1 };
    expect(run(keyed, { longAt: 1_000, sliceChars: 1_000 })).toEqual({
      json: JSON.stringify(keyed),
      yields: 0,
    });
  });

  it("serializes whole a value that itself holds the mark of a long string's place", () => {
    const marker = "\u0000mark-";
    const input = { forged: `${marker}0`, long: "z".repeat(50) };
    expect(run(input, { longAt: 10, sliceChars: 10, marker })).toEqual({
      json: JSON.stringify(input),
      yields: 0,
    });
  });

  it("gives undefined where JSON.stringify does, and follows toJSON", () => {
    expect(run(undefined, { longAt: 0, sliceChars: 1 }).json).toBeUndefined();
    const dated = { at: new Date(0), long: "q".repeat(20) };
    expect(run(dated, { longAt: 5, sliceChars: 4 }).json).toBe(JSON.stringify(dated));
  });

  it("finds a long string at any depth, and ends on a value that refers to itself", () => {
    expect(holdsLongString({ a: [{ b: [["x".repeat(8)]] }] }, 8)).toBe(true);
    expect(holdsLongString({ a: [{ b: [["x".repeat(7)]] }] }, 8)).toBe(false);
    const looped: { self?: unknown; text: string } = { text: "short" };
    looped.self = looped;
    expect(holdsLongString(looped, 8)).toBe(false);
  });

  it("reads a text joined from pieces (an imported one) from its pieces, never whole, to the same bytes", () => {
    const pieces = ["a\u00e9".repeat(40_000), "\ud83d\ude00\n".repeat(40_000), '"b'.repeat(40_000)];
    const message = { role: "user", content: [{ type: "text", text: joinPieces(pieces, pieces) }] };
    const text = message.content[0]?.text as string;
    let joined = "";
    expect(
      wholeReads(text, () => {
        joined = run(message, { longAt: 64 * 1024, sliceChars: 50_001 }).json ?? "";
      }),
    ).toBe(0);
    expect(joined).toBe(JSON.stringify(message));
  });
});
