import type { Delivery } from "../agent/message-delivery.ts";
import { LANDING_TEXT } from "../agent/landing.ts";

export interface DeliveryOption {
  value: Delivery;
  label: string;
  explain: string;
  /** Why this way is not offered for this message (shown instead of `explain`). */
  unavailable?: string;
}

const OPTIONS: Record<Delivery, DeliveryOption> = {
  append: {
    value: "append",
    label: "Append now",
    explain: "Added to the facts and stored at once; no model call.",
  },
  appendAndRun: {
    value: "appendAndRun",
    label: "Append and run a turn",
    explain: "Added to the facts, then the model is called with it.",
  },
  steer: {
    value: "steer",
    label: "Steer",
    explain: "Queued; delivered after the current turn's tool calls, before the next model call.",
  },
  followUp: {
    value: "followUp",
    label: "Follow-up",
    explain: "Queued; delivered only when the agent would otherwise stop, then it continues.",
  },
  nextTurn: {
    value: "nextTurn",
    label: "Next turn",
    explain: "Held, and sent together with your next prompt (after it).",
  },
};

/**
 * The ways a hand-made message can be delivered, as pi's `sendCustomMessage` defines them: appended
 * (with or without a turn) when idle, through the Agent's queues while a run is active, or held for the
 * next prompt either way. While a model call is held, each says whether it lands in that call.
 */
export function deliveryOptions(
  running: boolean,
  held = false,
  { reachesModel = true }: { reachesModel?: boolean } = {},
): DeliveryOption[] {
  if (!running)
    return [
      OPTIONS.append,
      reachesModel
        ? OPTIONS.appendAndRun
        : {
            ...OPTIONS.appendAndRun,
            // A turn would call the model with what it already answered: a second reply in a row.
            unavailable:
              "Not offered for this message: the model does not receive it (see above), so a turn would call the model with nothing new to answer.",
          },
      OPTIONS.nextTurn,
    ];
  if (!held) return [OPTIONS.steer, OPTIONS.followUp, OPTIONS.nextTurn];
  return [
    { ...OPTIONS.steer, explain: `Queued; it ${LANDING_TEXT.thisCall}.` },
    {
      ...OPTIONS.followUp,
      explain: `Queued; not in the held call: it ${LANDING_TEXT.whenItWouldStop} (after that call's reply, if it calls no tool).`,
    },
    OPTIONS.nextTurn,
  ];
}

/** The chosen delivery if it applies to the session as it is now; undefined means: choose again. */
export function applicableDelivery(chosen: Delivery | undefined, running: boolean): Delivery | undefined {
  return deliveryOptions(running).some((option) => option.value === chosen) ? chosen : undefined;
}

/** Why a chosen delivery no longer applies, in the words the person chose it by. */
export function staleDelivery(chosen: Delivery, running: boolean): string {
  const label = OPTIONS[chosen].label;
  return running
    ? `${label} is for an idle session, and a run has started. Choose how to deliver it now.`
    : `${label} is for a run, and the run has ended. Choose how to deliver it now.`;
}
