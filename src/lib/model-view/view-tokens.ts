import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { estimateContextTokens, type ContextUsageEstimate } from "@earendil-works/pi-ai/utils/estimate";
import type { ModelView, TokenEstimate } from "./project.ts";
import { kindOf } from "../messages/kinds/index.ts";
import { estimable, isEstimable } from "../messages/tokens.ts";
import { tallyContext } from "./context-tally.ts";

export type { ContextUsageEstimate };

export const TOKEN_ESTIMATOR_LABEL = "≈ pi-ai's estimate";
export const TOKEN_ESTIMATOR_DESCRIPTION =
  "pi-ai's estimate (estimateMessageTokens): characters ÷ 3.5, an image as 4,800 characters. The model view's total is the next call's context as pi-ai estimates it (estimateContextTokens): the last reply's reported usage, plus an estimate of what follows it.";

/** pi-ai's estimate of a context: anchored on the last reply whose usage applies, estimated after it. */
export function contextTokens(messages: readonly Message[]): ContextUsageEstimate {
  return estimateContextTokens(messages.every(isEstimable) ? messages : messages.map(estimable));
}

/**
 * A fact's own size, as its kind measures it: pi-ai's estimate for the messages the model reads, and for
 * the custom facts pi-ai's text estimate of what they hold (a fact the policy hides still has a size; what
 * the model reads of a converted one is counted by the model view). A fact of a role nobody registered is
 * never sent: nothing.
 */
export function factTokens(fact: AgentMessage): number {
  return kindOf(fact).tokens(fact);
}

/** pi-ai's estimate, as a view's totals count with it (`ModelView.factTokens`). */
const PI_AI_ESTIMATE: TokenEstimate = {
  fact: factTokens,
  context: tallyContext,
};

/** pi-ai's estimate of every fact's own size in `view`, summed. */
export function viewFactTokens(view: ModelView): number {
  return view.factTokens(PI_AI_ESTIMATE);
}

/** pi-ai's estimate of the next call's context in `view`, anchored on the last reply's usage. */
export function viewModelTokens(view: ModelView): number {
  return view.modelTokens(PI_AI_ESTIMATE);
}
