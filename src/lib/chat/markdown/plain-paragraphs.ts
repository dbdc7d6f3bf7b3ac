import { paragraphPieces } from "./paragraph-pieces.ts";
import { escapeHtml } from "./render.ts";

/**
 * A word of a plain line: letters, digits and punctuation to which Markdown (CommonMark with GFM, as
 * marked parses it) gives no meaning. Left out: everything that opens markup or an escape (`*_~\`[]<>&\\|#`),
 * list and heading markers (`-+=`), and `/` and `@`, which URLs and e-mail addresses need to become links.
 */
const WORD = String.raw`[\p{L}\p{N}.,:;?!'"()%$]+`;
/** A line of such words with single spaces between them: none before or after (indented code, hard breaks). */
const PLAIN_LINE = new RegExp(`^${WORD}(?: ${WORD})*$`, "u");
/** A line that opens an ordered list (`1.`, `2)`), which these characters could otherwise make. */
const LIST_START = /^\d+[.)]/;
/** GFM makes a link of `www.` followed by a domain, with no scheme. */
const BARE_DOMAIN = /www\./i;

/**
 * The blocks that marked renders for `source` when it is plain prose (paragraphs of plain lines separated
 * by empty lines), found without parsing it; undefined when it may hold anything else. Most messages are
 * such prose, and parsing and sanitizing them was most of what rendering one cost (traced in an imported
 * session's first render).
 *
 * The HTML holds only `<p>` elements (long ones in pieces, as `paragraphPieces` cuts what marked renders)
 * and text escaped as marked escapes it, with no `<` or `&` of its own: there is nothing for a sanitizer
 * to remove, so it need not pass through one. The test compares it with marked's output on random prose.
 */
export function plainParagraphs(source: string): string[] | undefined {
  if (BARE_DOMAIN.test(source)) return undefined;
  const blocks: string[] = [];
  let paragraph: string[] = [];
  const close = () => {
    if (paragraph.length === 0) return;
    blocks.push(...paragraphPieces(`<p>${escapeHtml(paragraph.join("\n"))}</p>\n`));
    paragraph = [];
  };
  for (const line of source.split("\n")) {
    if (line === "") close();
    else if (PLAIN_LINE.test(line) && !LIST_START.test(line)) paragraph.push(line);
    else return undefined;
  }
  close();
  return blocks;
}
