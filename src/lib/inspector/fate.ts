import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { changeLabel } from "../model-view/provider-change-labels.ts";
import type { ProviderView } from "../model-view/provider-changes.ts";
import { FATE_LABELS, type Fate, type ModelView } from "../model-view/project.ts";

export type FateTone = Fate | "pending" | "streaming";

export interface FateLabel {
  text: string;
  tone: FateTone;
}

/**
 * What the inspector says about a fact's fate. A fact added after the last request that will reach the
 * model is "not yet sent": the model has not seen it, and will on the next request.
 */
export function fateLabel(fate: Fate, seenByModel: boolean): FateLabel {
  switch (fate) {
    case "sent":
      return seenByModel
        ? { text: FATE_LABELS.sent, tone: "sent" }
        : { text: "not yet sent (as-is)", tone: "pending" };
    case "converted":
      return seenByModel
        ? { text: "converted → user", tone: "converted" }
        : { text: "not yet sent (→ user)", tone: "pending" };
    case "edited":
      return seenByModel
        ? { text: FATE_LABELS.edited, tone: "edited" }
        : { text: "not yet sent (edited)", tone: "pending" };
    case "hidden":
    case "excluded":
    case "compacted":
    case "carried":
    case "omitted":
    case "failedAttempt":
    case "unknown":
      return { text: FATE_LABELS[fate], tone: fate };
  }
}

export const STREAMING_LABEL: FateLabel = { text: "streaming: not final", tone: "streaming" };

/**
 * The fact's label when the provider transform drops its model message: what the provider receives wins
 * over what `convertToLlm` gave (a failed reply is in the model view, never in the request).
 */
export function providerDropLabel(dropped: string | undefined, label: FateLabel): FateLabel {
  return dropped ? { text: dropped, tone: "omitted" } : label;
}

/**
 * The provider transform's reason for dropping the model message of a fact ("dropped: aborted"), or
 * undefined when the fact has no model message or the provider receives it.
 */
export function providerDropOf(
  view: Pick<ModelView, "targetOf">,
  provider: ProviderView | undefined,
  factIndex: number,
): string | undefined {
  const target = view.targetOf[factIndex] ?? -1;
  if (!provider || target < 0 || (provider.targetOf[target] ?? -1) >= 0) return undefined;
  const change = provider.modelChanges[target]?.find((candidate) => candidate.kind === "dropped");
  return change ? changeLabel(change) : undefined;
}

/**
 * For a system fact carried by a compaction: the compaction's fact and the model message that is the copy
 * of the prompt it recorded (the first system message coming from a compaction summary).
 */
export function compactionCopyOf(
  view: Pick<ModelView, "messages" | "sourceOf">,
  facts: readonly AgentMessage[],
): { fact: number; model: number } | undefined {
  for (let model = 0; model < view.messages.length; model++) {
    const fact = view.sourceOf[model] ?? -1;
    if (view.messages[model]?.role === "system" && facts[fact]?.role === "compactionSummary")
      return { fact, model };
  }
  return undefined;
}
