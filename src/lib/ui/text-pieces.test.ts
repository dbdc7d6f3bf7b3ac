import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textPieces } from "./text-pieces.ts";

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
