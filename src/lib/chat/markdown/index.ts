import { markdownLimits } from "./limits.ts";
import { plainParagraphs } from "./plain-paragraphs.ts";
import { createBlockRenderer, hasFencedCode } from "./render.ts";
import { MarkdownRenderer, type WorkerLike } from "./renderer.ts";
import { sanitizeHtml } from "./sanitize.ts";
import { inPageWorker } from "./in-page-worker.ts";

/**
 * The page's one Markdown renderer, loaded with the first reply that needs it: the parser and sanitizer
 * for short sources, and the worker, started on first use, for the rest.
 */
export const markdownRenderer = new MarkdownRenderer({
  renderBlocks: createBlockRenderer(),
  renderPlain: plainParagraphs,
  hasFencedCode,
  sanitize: sanitizeHtml,
  // A session exported as HTML renders in the page (VITE_MARKDOWN_IN_PAGE, set by its build only).
  createWorker: import.meta.env.VITE_MARKDOWN_IN_PAGE
    ? inPageWorker
    : typeof Worker === "undefined"
      ? undefined
      : () =>
          new Worker(new URL("./worker.ts", import.meta.url), {
            type: "module",
            name: "markdown",
          }) as unknown as WorkerLike,
  limits: markdownLimits(import.meta.env),
});

export { markdownLimits } from "./limits.ts";
export type { MarkdownOutcome, PlainReason } from "./renderer.ts";
