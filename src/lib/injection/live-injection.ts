import type { DeliverAs, LiveAsk, LiveInjection } from "../../shared/live/live-protocol.ts";
import type { FieldError } from "../messages/validate.ts";
import { formatTime } from "../ui/format.ts";
import { deliveryOptions } from "./delivery.ts";
import { buildFromForm } from "./form-message.ts";
import type { FormValues } from "./forms.ts";

/**
 * What the page sends a live pi: a message made with the injection dialog's custom-message form (pi's
 * `sendMessage` takes custom messages only: a type, content, whether pi's interface shows it, details),
 * checked by the same rules, and the ways pi delivers it.
 */

/** The custom types the playground itself knows, offered as suggestions; any other type is fine too. */
export const SUGGESTED_TYPES = ["notification", "approval_request", "progress"] as const;

export type LiveInjectionResult =
  { ok: true; injection: LiveInjection } | { ok: false; errors: FieldError[] };

/** The injection a custom-message form describes, or what is wrong with it, field by field. */
export function liveInjection(values: FormValues): LiveInjectionResult {
  const built = buildFromForm("custom", values);
  if (!built.ok) return built;
  const message = built.message;
  if (message.role !== "custom")
    return { ok: false, errors: [{ field: "", message: "Only a custom message can go to pi." }] };
  return {
    ok: true,
    injection: {
      customType: message.customType,
      content: message.content,
      display: message.display,
      ...(message.details !== undefined ? { details: message.details } : {}),
    },
  };
}

export interface LiveDelivery {
  value: DeliverAs;
  label: string;
  explain: string;
}

/**
 * pi's three ways (`sendMessage`'s `deliverAs`), with the words the injection dialog uses for them. A steer
 * or follow-up sent to an idle pi starts a turn with it (the extension asks for one).
 */
export function liveDeliveries(running: boolean): LiveDelivery[] {
  return deliveryOptions(true).flatMap((option): LiveDelivery[] => {
    const value = option.value;
    if (value !== "steer" && value !== "followUp" && value !== "nextTurn") return [];
    const idle =
      value === "nextTurn" ? option.explain : "pi is idle: it takes the message now and runs a turn.";
    return [{ value, label: option.label, explain: running ? option.explain : idle }];
  });
}

function waitWords(timeoutMs: number): string {
  const seconds = Math.round(timeoutMs / 1000);
  return seconds >= 120 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/** What a question pi waits on says about its deadline: until when, and what pi does then. */
export function askDeadline(ask: LiveAsk): string {
  const wait = waitWords(ask.timeoutMs);
  const then =
    ask.kind === "tool"
      ? "then it blocks the tool call and tells the model so"
      : "then it cancels the call and ends the run";
  return `pi waits until ${formatTime(ask.askedAt + ask.timeoutMs)} (${wait}); ${then}.`;
}

/** The same, before anything is asked: how long pi waits for an answer, and what happens then. */
export function gateDeadline(gate: "tools" | "calls", timeoutMs: number): string {
  const wait = waitWords(timeoutMs);
  return gate === "tools"
    ? `pi waits ${wait} for an answer; then it blocks the tool call and tells the model so.`
    : `pi waits ${wait} for Continue; then it cancels the call and ends the run.`;
}
