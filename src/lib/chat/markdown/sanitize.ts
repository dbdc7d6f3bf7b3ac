import DOMPurify from "dompurify";

/**
 * The last line of defence for rendered Markdown. The renderer already escapes raw HTML, so this only sees
 * the tags Markdown produces; it still strips anything that could run script, load frames or style the
 * page, in case a renderer bug or a crafted link lets something through.
 */
const purifier = DOMPurify();
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});

export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, {
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
    ALLOW_DATA_ATTR: false,
  });
}
