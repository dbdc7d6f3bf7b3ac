import type { Delivery } from "../agent/chat-session.svelte.ts";

export interface DeliveryOption {
  value: Delivery;
  label: string;
  explain: string;
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
 * next prompt either way.
 */
export function deliveryOptions(running: boolean): DeliveryOption[] {
  return running
    ? [OPTIONS.steer, OPTIONS.followUp, OPTIONS.nextTurn]
    : [OPTIONS.append, OPTIONS.appendAndRun, OPTIONS.nextTurn];
}

/** The chosen delivery if it still applies (a run may have started or ended meanwhile), else the first one. */
export function effectiveDelivery(chosen: Delivery | undefined, running: boolean): Delivery {
  const options = deliveryOptions(running);
  return options.some((option) => option.value === chosen)
    ? (chosen as Delivery)
    : (options[0] as DeliveryOption).value;
}
