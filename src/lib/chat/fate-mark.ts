import type { Fate } from "../model-view/project.ts";

export interface FateMark {
  text: string;
  tone: "hidden" | "converted";
}

/**
 * What the chat says about a message the model does not receive as it is shown: nothing for one sent
 * as-is, otherwise a short mark. The inspector tells why ("Show in inspector" on the message).
 */
export function chatFateMark(fate: Fate | undefined): FateMark | undefined {
  switch (fate) {
    case undefined:
    case "sent":
      return undefined;
    case "converted":
      return {
        text: "sent as user text",
        tone: "converted",
      };
    case "hidden":
      return {
        text: "hidden from the model",
        tone: "hidden",
      };
    case "excluded":
      return {
        text: "hidden from the model (!!)",
        tone: "hidden",
      };
    case "compacted":
      return {
        text: "dropped by compaction",
        tone: "hidden",
      };
    case "carried":
      return { text: "sent as the compaction's copy", tone: "converted" };
    case "edited":
      return { text: "sent edited (context edit)", tone: "converted" };
    case "omitted":
      return { text: "left out by a context edit", tone: "hidden" };
    case "failedAttempt":
      return { text: "left out: failed attempt", tone: "hidden" };
    case "unknown":
      return { text: "unknown type, not sent", tone: "hidden" };
  }
}
