import { positiveInt } from "../../../shared/positive-int.ts";

/**
 * What Markdown rendering may cost. The parser is quadratic on some inputs (`_a_a_a…`): 40 kB of it took
 * seconds. So the main thread only ever parses short sources, whose worst case is a few milliseconds; all
 * else is parsed in a worker that is ended when it overruns its time budget, and the reply is shown as plain
 * text instead. Set at build time: `VITE_MARKDOWN_MAX_CHARS=… npm start`.
 */
export interface MarkdownLimits {
  /** Longer sources are shown as plain text without trying. */
  maxChars: number;
  /** A render in the worker that takes longer is abandoned (the worker is ended) for plain text. */
  timeBudgetMs: number;
  /**
   * How long the worker may take to be ready to parse (start, and load highlighting the first time a code
   * block appears) before the source is shown as plain text. Not part of the time budget: on a busy machine
   * loading alone may take longer than a parse is allowed.
   */
  loadBudgetMs: number;
  /** Sources up to this length are parsed on the main thread at once; longer ones go to the worker. */
  syncMaxChars: number;
}

export const DEFAULT_MARKDOWN_LIMITS: MarkdownLimits = {
  maxChars: 200_000,
  timeBudgetMs: 1_000,
  loadBudgetMs: 30_000,
  syncMaxChars: 1_000,
};

export function markdownLimits(env: Record<string, unknown>): MarkdownLimits {
  return {
    maxChars: positiveInt(env.VITE_MARKDOWN_MAX_CHARS) ?? DEFAULT_MARKDOWN_LIMITS.maxChars,
    timeBudgetMs: positiveInt(env.VITE_MARKDOWN_TIME_BUDGET_MS) ?? DEFAULT_MARKDOWN_LIMITS.timeBudgetMs,
    loadBudgetMs: positiveInt(env.VITE_MARKDOWN_LOAD_BUDGET_MS) ?? DEFAULT_MARKDOWN_LIMITS.loadBudgetMs,
    syncMaxChars: DEFAULT_MARKDOWN_LIMITS.syncMaxChars,
  };
}
