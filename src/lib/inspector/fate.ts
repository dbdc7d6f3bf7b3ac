import { FATE_LABELS, type Fate } from "../model-view/project.ts";

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
