import { countOf } from "../../shared/count-of.ts";
import type { Composition } from "./composition.ts";

/** Words for the anatomy's numbers: where a total comes from, shares, sizes against a window. */

export const whole = (count: number): string => Math.round(count).toLocaleString("en-US");

export function percent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return "0%";
  const value = share * 100;
  return value < 0.1 ? "<0.1%" : `${value < 10 ? value.toFixed(1) : Math.round(value)}%`;
}

/** Where a request's total comes from, said plainly: the provider's count, or an estimate and its anchor. */
export function describeBasis(composition: Composition): string {
  const { basis } = composition;
  if (basis.kind === "usage") {
    const parts = [`${whole(basis.input)} uncached`];
    if (basis.cacheRead > 0) parts.unshift(`${whole(basis.cacheRead)} read from the cache`);
    if (basis.cacheWrite > 0) parts.push(`${whole(basis.cacheWrite)} written to it`);
    return `${whole(composition.total)} input tokens, the provider's count (${parts.join(", ")}); split by category in proportion to characters (pi-ai's estimate was ${whole(basis.estimate)}).`;
  }
  if (basis.kind === "recorded")
    return `${whole(composition.total)} input tokens, split by category as the ${basis.format} file recorded them (the messages behind them are not known to this session).`;
  if (basis.anchorIndex !== null)
    return `≈ ${whole(composition.total)} tokens, an estimate: the last reply's usage (${whole(basis.usageTokens)}, message ${basis.anchorIndex + 1}) plus ≈ ${whole(basis.trailingTokens)} for what follows it (pi-ai's estimateContextTokens).`;
  return `≈ ${whole(composition.total)} tokens, an estimate (characters ÷ 3.5, pi-ai's estimator): no reply with usage to anchor on.`;
}

/** "42,000 of 128,000 (33%)" or a sentence saying the window is unknown. */
export function describeWindow(tokens: number | undefined, window: number | undefined): string {
  if (window === undefined) return "The model's context window is unknown, so its share cannot be shown.";
  if (tokens === undefined) return `Context window ${whole(window)} tokens.`;
  return `${whole(tokens)} of the model's ${whole(window)}-token context window (${percent(tokens / window)}).`;
}

export function callsRead(counted: number, unknown: number): string {
  const read = `${countOf(counted, "call")} read`;
  return unknown > 0 ? `${read}; ${countOf(unknown, "call")} left out (messages not kept)` : read;
}
