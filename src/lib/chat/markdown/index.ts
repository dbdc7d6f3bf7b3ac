import { markdownLimits } from "./limits.ts";
import { createBlockRenderer, hasFencedCode } from "./render.ts";
import { MarkdownRenderer, type WorkerLike } from "./renderer.ts";
import { sanitizeHtml } from "./sanitize.ts";

/**
 * The page's one Markdown renderer, loaded with the first reply that needs it: the parser and sanitizer
 * for short sources, and the worker, started on first use, for the rest.
 */
export const markdownRenderer = new MarkdownRenderer({
  renderBlocks: createBlockRenderer(),
  hasFencedCode,
  sanitize: sanitizeHtml,
  createWorker:
    typeof Worker === "undefined"
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
