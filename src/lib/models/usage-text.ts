import type { TokenCounts } from "./usage.ts";
import { formatCost, formatTokens } from "../ui/format.ts";

/**
 * The one way token numbers are written: the session total in the header, each reply's usage line and
 * the calls view all use these words, so a number means the same wherever it is read.
 */
export function usageParts(tokens: TokenCounts): string[] {
  const parts = [`in ${formatTokens(tokens.input)}`];
  if (tokens.cacheRead > 0) parts.push(`cached ${formatTokens(tokens.cacheRead)}`);
  if (tokens.cacheWrite > 0) parts.push(`cache write ${formatTokens(tokens.cacheWrite)}`);
  parts.push(
    tokens.outputEstimated
      ? `out ≈ ${formatTokens(tokens.output)} (estimate)`
      : `out ${formatTokens(tokens.output)}`,
  );
  return parts;
}

/** The token parts and the cost: what a usage line shows, part by part. */
export function usageLineParts(tokens: TokenCounts): string[] {
  return [...usageParts(tokens), formatCost(tokens.cost)];
}

/** The token parts and the cost, as one line. */
export function usageLine(tokens: TokenCounts): string {
  return usageLineParts(tokens).join(" · ");
}

/** What the words mean, for a tooltip beside any of them. */
export const USAGE_WORDS =
  "in: input tokens not read from a cache · cached: input tokens read from the provider's cache · cache write: input tokens written to it · out: output tokens. ≈ (estimate): the reply was stopped before the provider reported usage, so its output is estimated from what streamed (pi-ai's estimate: characters ÷ 3.5).";
