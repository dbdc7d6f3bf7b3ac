import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTINUED_CLASS, paragraphPieces } from "./paragraph-pieces.ts";

/** Inline HTML as Markdown renders it: escaped words, spaces and soft breaks, elements with spaces inside. */
const inline = fc.array(
  fc.constantFrom(
    "word",
    " ",
    "\n",
    "&amp;",
    "<br>",
    "<em>an emphasis</em>",
    '<a href="https://pi.dev" target="_blank">a link <code>with code</code></a>',
  ),
  { maxLength: 120 },
);

const paragraph = (parts: readonly string[]) => `<p>${parts.join("")}</p>\n`;
const opening = `<p class="${CONTINUED_CLASS}">`;

/** A piece's content between its tags, checking that it is one well-formed paragraph. */
function contentOf(piece: string, last: boolean): string {
  const start = last ? "<p>" : opening;
  expect(piece.startsWith(start) && piece.endsWith("</p>\n")).toBe(true);
  const content = piece.slice(start.length, -"</p>\n".length);
  let depth = 0;
  for (const [, closing, name] of content.matchAll(/<(\/?)([a-z]+)[^>]*>/g)) {
    if (name === "br") continue;
    depth += closing ? -1 : 1;
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
  return content;
}

describe("paragraphPieces", () => {
  it("leaves a paragraph of up to twice the target, and any other block, whole", () => {
    expect(paragraphPieces("<p>a b c d</p>\n", 4)).toEqual(["<p>a b c d</p>\n"]);
    const list = `<ul>\n<li>${"word ".repeat(10)}</li>\n</ul>\n`;
    expect(paragraphPieces(list, 4)).toEqual([list]);
  });

  it("cuts a long paragraph at spaces outside its elements, the pieces reading as one paragraph", () => {
    const html = paragraph(["aaaa bbbb <em>c c c c c</em> dddd eeee"]);
    expect(paragraphPieces(html, 4)).toEqual([
      `${opening}aaaa</p>\n`,
      `${opening}bbbb</p>\n`,
      `${opening}<em>c c c c c</em></p>\n`,
      `${opening}dddd</p>\n`,
      "<p>eeee</p>\n",
    ]);
  });

  it("loses nothing and adds nothing: the pieces and the spaces between them are the paragraph", () => {
    fc.assert(
      fc.property(inline, (parts) => {
        const html = paragraph(parts);
        const pieces = paragraphPieces(html, 16);
        const contents = pieces.map((piece, index) => contentOf(piece, index === pieces.length - 1));
        const inner = html.slice("<p>".length, -"</p>\n".length);
        let rebuilt = "";
        for (const [index, content] of contents.entries()) {
          rebuilt += content;
          // The space or line break a piece ended at is the boundary between two blocks.
          if (index < contents.length - 1) {
            expect(inner[rebuilt.length]).toMatch(/^[ \n]$/);
            rebuilt += inner[rebuilt.length];
          }
        }
        expect(rebuilt).toBe(inner);
        // A piece that began with a line break would show an empty line the paragraph does not have.
        for (const content of contents.slice(1)) expect(content.startsWith("<br")).toBe(false);
      }),
    );
  });

  it("does not cut before a line break (a backslash at a line's end), which would open the next piece with it", () => {
    const html = paragraph(["word ".repeat(8), "end <br>\n", "next ".repeat(8)]);
    const pieces = paragraphPieces(html, 40);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece).not.toMatch(/^<p[^>]*><br/);
    expect(pieces.join(" ").replaceAll(/<\/?p[^>]*>\n?/g, "")).toContain("end <br>");
  });

  it("never changes a piece once it is decided, however the paragraph grows at its end", () => {
    fc.assert(
      fc.property(inline, (parts) => {
        const whole = paragraphPieces(paragraph(parts), 16);
        for (let count = 0; count <= parts.length; count++) {
          const partial = paragraphPieces(paragraph(parts.slice(0, count)), 16);
          // Every piece but the growing last one is already final.
          expect(partial.slice(0, -1)).toEqual(whole.slice(0, partial.length - 1));
        }
      }),
    );
  });
});
