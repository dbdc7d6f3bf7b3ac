import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shownText, textPieces } from "./text-pieces.ts";

describe("textPieces", () => {
  it("leaves a text of up to twice the target whole", () => {
    expect(textPieces("a".repeat(8), 4)).toEqual(["a".repeat(8)]);
  });

  it("ends a piece at the first line break in its second half, which becomes the boundary", () => {
    expect(textPieces("abcde\nfghij\nklmnopq", 4)).toEqual(["abcde", "fghij", "klmnopq"]);
  });

  it("cuts a line with no break in reach at the target", () => {
    expect(textPieces("x".repeat(21), 4)).toEqual(["xxxx", "xxxx", "xxxx", "xxxx", "xxxxx"]);
  });

  it("never changes a piece once it is decided, however the text grows at its end", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "\n", " "), { maxLength: 400 }), (characters) => {
        const text = characters.join("");
        const whole = textPieces(text, 8);
        for (let length = 0; length <= text.length; length++) {
          const partial = textPieces(text.slice(0, length), 8);
          // Every piece but the growing last one is already final.
          expect(partial.slice(0, -1)).toEqual(whole.slice(0, partial.length - 1));
        }
      }),
    );
  });

  it("loses nothing and adds nothing: the pieces and the line breaks between them are the text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "\n", "é"), { maxLength: 300 }), (characters) => {
        const text = characters.join("");
        const pieces = textPieces(text, 4);
        let rebuilt = "";
        let at = 0;
        for (const [index, piece] of pieces.entries()) {
          rebuilt += piece;
          at += piece.length;
          // A piece cut inside a long line is never followed by a break: that break would have ended it.
          if (index < pieces.length - 1 && text[at] === "\n") {
            rebuilt += "\n";
            at++;
          }
        }
        expect(rebuilt).toBe(text);
      }),
    );
  });
});

describe("shownText", () => {
  it("shows a long text a page at a time and counts what it leaves out", () => {
    const text = "lorem ipsum ".repeat(1_000);
    const first = shownText(text, 1, 3_000, 500);
    expect(first.pieces.join("")).toBe(text.slice(0, 3_000));
    expect(first.hidden).toBe(text.length - 3_000);
    const two = shownText(text, 2, 3_000, 500);
    expect(two.pieces.join("")).toBe(text.slice(0, 6_000));
    expect(shownText("short", 1, 3_000, 500)).toEqual({ pieces: ["short"], hidden: 0 });
  });

  it("does the same work per update however long a streaming text grows past its page", () => {
    const chunk = "lorem ipsum ".repeat(350);
    let text = "";
    let before: string[] = [];
    for (let index = 0; index < 750; index++) {
      text += chunk;
      const { pieces, hidden } = shownText(text, 1, 200_000, 4_000);
      // Past the page, the pieces shown are the same ones: the page has nothing to lay out again.
      if (text.length > 200_000 + chunk.length) expect(pieces).toEqual(before);
      expect(pieces.join("").length + hidden).toBe(text.length);
      expect(pieces.length).toBeLessThanOrEqual(Math.ceil(200_000 / 4_000));
      before = pieces;
    }
    expect(text.length).toBeGreaterThan(3_000_000);
  });
});
