import DOMPurify from "dompurify";
import { Marked } from "marked";

/**
 * Model output is untrusted: Markdown is rendered to HTML and then sanitized, so a reply cannot run
 * script, load frames or style the page. Loaded on first use to keep the initial bundle small.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

const purifier = DOMPurify();
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});

export function renderMarkdown(source: string): string {
  const html = marked.parse(source) as string;
  return purifier.sanitize(html, {
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
    ALLOW_DATA_ATTR: false,
  });
}
