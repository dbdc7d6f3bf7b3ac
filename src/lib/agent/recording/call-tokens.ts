import { tokenCounts, type TokenCounts } from "../../models/usage.ts";
import type { CallOutcome } from "../../storage/records.ts";

/** A call's token numbers: the provider's usage, or the estimate kept for a reply stopped before any came. */
export function callTokens(outcome: CallOutcome): TokenCounts {
  // A stored record is read back as it was kept: only a number is an estimate.
  const estimate = typeof outcome.outputEstimate === "number" ? outcome.outputEstimate : undefined;
  return tokenCounts(outcome.usage, estimate);
}
