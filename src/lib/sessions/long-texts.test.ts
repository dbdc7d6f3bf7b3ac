import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyText, jsonLike } from "../../shared/json-values.test-support.ts";
import { putLongTexts, takeLongTexts } from "./long-texts.ts";
import { textSlice } from "../ui/joined-text.ts";
import { wholeReads } from "../ui/whole-reads.test-support.ts";

/** JSON values as a session file's entries hold them, "__proto__" among their keys. */
const json = jsonLike(fc.oneof(anyText, fc.constant("__proto__")));

/** What the page receives: a copy, as posting a message between threads makes one. */
function sent<Item>(items: Item[]): Item[] {
  return structuredClone(items);
}

describe("long texts sent from the import worker in pieces", () => {
  it("arrive as they were, whatever the values and wherever pieces are cut, leaving the worker's items as they were", () => {
    fc.assert(
      fc.property(
        fc.array(json, { maxLength: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 12 }),
        (items, longAt, pieceChars, poolAt, poolChars) => {
          const before = structuredClone(items);
          const {
            items: without,
            taken,
            pieces,
            pooled,
            pool,
          } = takeLongTexts(items, longAt, pieceChars, poolAt, poolChars);
          expect(items).toEqual(before);
          for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(pieceChars + 1);
          expect(pool.length).toBeLessThanOrEqual(poolChars);
          const received = sent(without);
          putLongTexts(received, taken, pieces, pooled, pool);
          expect(received).toEqual(items);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("takes a 3 MB text out of its entry and sends it in pieces of at most 1 MB, the rest of the entry as it was", () => {
    const huge = "y".repeat(3 * 1024 * 1024 + 5);
    const entry = {
      type: "message",
      id: "e0",
      message: { role: "user", content: [{ type: "text", text: huge }] },
    };
    const other = { type: "message", id: "e1", message: { role: "user", content: "short" } };
    const { items, taken, pieces } = takeLongTexts([other, entry]);
    // The entry without the text is small; the one without a long text is the same object, not a copy.
    expect(items[0]).toBe(other);
    expect(JSON.stringify(items[1]).length).toBeLessThan(200);
    expect(taken).toEqual([{ item: 1, path: ["message", "content", 0, "text"], pieces: 4 }]);
    expect(pieces.every((piece) => piece.length <= 1024 * 1024)).toBe(true);
    const received = sent(items);
    putLongTexts(received, taken, pieces);
    expect(received[1]).toEqual(entry);
  });

  it("sends a slice's texts of 10 kB as one pool, each put back as a slice of it, and what overflows the pool in pieces", () => {
    const text = (index: number) => `${index}: ${"lorem ipsum ".repeat(900)}`;
    const entries = Array.from({ length: 60 }, (_, index) => ({
      type: "message",
      id: `e${index}`,
      message: { role: "user", content: [{ type: "text", text: text(index) }], short: "kept in the entry" },
    }));
    const { items, taken, pieces, pooled, pool } = takeLongTexts(
      entries,
      1024 * 1024,
      1024 * 1024,
      512,
      400_000,
    );
    // What is posted holds one string of 10 kB or more, the pool: the entries hold none.
    const longStrings = (value: unknown): number =>
      typeof value === "string"
        ? Number(value.length >= 10_000)
        : typeof value === "object" && value !== null
          ? Object.values(value).reduce((sum: number, inner) => sum + longStrings(inner), 0)
          : 0;
    expect(longStrings(items)).toBe(0);
    expect(items[0]?.message.short).toBe("kept in the entry");
    // 37 texts of 10.8 kB fit in 400,000 characters; the other 23 go in pieces of their own.
    expect(pooled).toHaveLength(37);
    expect(pool.length).toBeLessThanOrEqual(400_000);
    expect(taken).toHaveLength(23);
    expect(pieces).toHaveLength(23);
    const received = sent(items);
    putLongTexts(received, taken, pieces, pooled, pool);
    expect(received).toEqual(entries);
  });

  it("keeps a surrogate pair in one piece", () => {
    const { pieces } = takeLongTexts([{ text: "ab\u{1F600}cd" }], 4, 3);
    expect(pieces).toEqual(["ab\u{1F600}", "cd"]);
  });

  it("puts a text under the key __proto__ back as a key, not as the object's prototype", () => {
    const item = JSON.parse(`{"__proto__": "${"z".repeat(20)}"}`) as Record<string, unknown>;
    const { items, taken, pieces } = takeLongTexts([item], 10, 4);
    const received = sent(items);
    putLongTexts(received, taken, pieces);
    expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(received[0], "__proto__")?.value).toBe("z".repeat(20));
  });

  it("says so when the pieces received do not add up to the texts taken", () => {
    const { items, taken, pieces } = takeLongTexts([{ text: "x".repeat(20) }], 10, 4);
    expect(() => putLongTexts(sent(items), taken, pieces.slice(1))).toThrow(/fewer pieces/);
    expect(() => putLongTexts(sent(items), taken, [...pieces, "extra"])).toThrow(/more pieces/);
    const inPool = takeLongTexts([{ text: "x".repeat(20) }], 100, 4, 10);
    expect(() => putLongTexts(sent(inPool.items), [], [], inPool.pooled, inPool.pool.slice(1))).toThrow(
      /pool of text shorter/,
    );
  });

  it("puts a text back as one read from its pieces: slicing it never makes it one flat string", () => {
    const huge = "z".repeat(3 * 1024 * 1024 + 5);
    const entry = { type: "message", id: "e0", message: { role: "user", content: huge } };
    const { items, taken, pieces } = takeLongTexts([entry]);
    const received = sent(items);
    putLongTexts(received, taken, pieces);
    const text = received[0]?.message.content as string;
    expect(wholeReads(text, () => expect(textSlice(text, 1024 * 1024 - 1, 1024 * 1024 + 1)).toBe("zz"))).toBe(
      0,
    );
    expect(text).toBe(huge);
  });
});
