import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PIECE_CHARS } from "../../ui/text-pieces.ts";
import { plainParagraphs } from "./plain-paragraphs.ts";
import { createBlockRenderer } from "./render.ts";

const marked = createBlockRenderer();

/** Words from an alphabet mixing what plain prose holds with what Markdown gives a meaning to. */
const word = fc
  .array(
    fc.constantFrom(
      ..."abcXYZ019éж漢.,:;?!'\"()%$".split(""),
      ..."*_~`[]<>&\\|#-+=/@\t".split(""),
      "www.",
      "1.",
      "2)",
      "http://x.y",
      "a@b.co",
      "&amp;",
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(""));
const line = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(" ")),
  fc.constantFrom("", " ", "    indented", "trailing  ", " leading", "===", "---", "- item", "> quote"),
);
const source = fc.array(line, { minLength: 0, maxLength: 8 }).map((lines) => lines.join("\n"));

describe("plainParagraphs", () => {
  it("gives what marked renders for every source it accepts, and accepts plain prose", () => {
    let accepted = 0;
    fc.assert(
      fc.property(source, (text) => {
        const fast = plainParagraphs(text);
        if (fast === undefined) return;
        accepted++;
        expect(fast).toEqual(marked(text));
      }),
      { numRuns: 3_000 },
    );
    // The property must not hold only because nothing was accepted.
    expect(accepted).toBeGreaterThan(100);
  });

  it("renders paragraphs, quotes escaped as marked escapes them, and nothing that could be markup", () => {
    const text = "It's \"plain\" (100%), isn't it?\nA second line.\n\n\nÉté 2026: fin.";
    const blocks = plainParagraphs(text);
    expect(blocks).toEqual([
      "<p>It&#39;s &quot;plain&quot; (100%), isn&#39;t it?\nA second line.</p>\n",
      "<p>Été 2026: fin.</p>\n",
    ]);
    expect(blocks).toEqual(marked(text));
  });

  it("cuts a long paragraph in pieces as marked's paragraphs are cut", () => {
    const text = "lorem ipsum dolor ".repeat(Math.ceil((3 * PIECE_CHARS) / 18)).trim();
    const blocks = plainParagraphs(text);
    expect(blocks?.length).toBeGreaterThan(1);
    expect(blocks).toEqual(marked(text));
  });

  it.each([
    ["emphasis", "a *b* c"],
    ["a list", "1. first"],
    ["a list closed by a parenthesis", "2) second"],
    ["a bare domain", "see www.example.com today"],
    ["an address", "mail a@b.co"],
    ["a URL", "at http://example.com"],
    ["raw HTML", "a <b>bold</b> move"],
    ["an entity", "fish &amp; chips"],
    ["indented code", "    code"],
    ["a hard line break", "end  \nnext"],
    ["a setext heading", "Title\n==="],
    ["a tab", "a\tb"],
    ["a carriage return", "a\r\nb"],
  ])("leaves %s to marked", (_, text) => {
    expect(plainParagraphs(text)).toBeUndefined();
  });
});
