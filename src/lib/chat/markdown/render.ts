import { Marked, type Tokens } from "marked";
import { paragraphPieces } from "./paragraph-pieces.ts";

/** Turns code into highlighted HTML (already escaped), or undefined for a language it does not know. */
export type Highlighter = (code: string, language: string) => string | undefined;

/**
 * Markdown to HTML, one string per top-level block (paragraph, list, table, code block…), so that a
 * streamed reply re-sanitizes and re-renders only the blocks that changed, usually the last one.
 *
 * Model output is text, not markup: raw HTML in a reply is shown as the characters it is, never parsed as
 * HTML. That is what people expect from a chat (a model explaining `<img onerror>` must show it), it keeps
 * every event-handler attribute away from the browser's HTML parser, and the sanitizer behind this only
 * ever sees the tags Markdown itself produces. Images become links: the page's CSP would refuse a remote
 * image anyway, and a model must not be able to make the browser fetch an address.
 *
 * Pure and DOM-free: it runs in the Markdown worker, and on the main thread for short sources only.
 */
export function createBlockRenderer(highlight?: Highlighter): (source: string) => string[] {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  const defaults = new marked.Renderer();
  marked.use({
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag): string {
        const text = escapeHtml(token.text);
        return "block" in token && token.block ? `<p>${text.trim()}</p>\n` : text;
      },
      image(token: Tokens.Image): string {
        const label = `image: ${token.text || token.href}`;
        return `<a href="${escapeHtml(token.href)}">${escapeHtml(label)}</a>`;
      },
      code(token: Tokens.Code): string {
        const language = /^\S+/.exec(token.lang ?? "")?.[0] ?? "";
        const body = (language && highlight?.(token.text, language)) || escapeHtml(token.text);
        const className = language ? ` class="language-${escapeHtml(language)}"` : "";
        return `<figure class="code-block"><figcaption>${escapeHtml(language || "code")}</figcaption><pre><code${className}>${body}\n</code></pre></figure>\n`;
      },
      table(token: Tokens.Table): string {
        // A wide table scrolls inside its own box instead of widening the chat.
        return `<div class="table-scroll">${defaults.table.call(this, token)}</div>\n`;
      },
    },
  });
  return (source) => {
    const tokens = marked.lexer(source);
    const blocks: string[] = [];
    for (const token of tokens) {
      if (token.type === "space") continue;
      const html = marked.parser([token]);
      if (html === "") continue;
      // A long paragraph comes as blocks of its own, so that as it grows only its last piece is new.
      if (token.type === "paragraph") blocks.push(...paragraphPieces(html));
      else blocks.push(html);
    }
    return blocks;
  };
}

/** Whether a source holds a fenced code block, the only thing that needs the highlighter. */
export function hasFencedCode(source: string): boolean {
  return /^ {0,3}(?:>\s*)*(?:```|~~~)/m.test(source);
}

/** Text escaped for HTML, as marked escapes it. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
