import { callTokens } from "../agent/recording/call-tokens.ts";
import { readVariantLink } from "../agent/variant-sets/variant-set.ts";
import type { CallRecord } from "../storage/records.ts";
import { formatDuration, formatTime } from "../ui/format.ts";
import { usageLine } from "../models/usage-text.ts";

export { formatDuration };

/** One line per call for the list: model, size, tokens, cost, time, and how it ended. */
export function callLine(call: CallRecord): string {
  const timing = [formatDuration(call.timing.durationMs)];
  if (call.timing.firstTokenMs !== undefined)
    timing.push(`first token ${formatDuration(call.timing.firstTokenMs)}`);
  const link = readVariantLink(call.variantSet);
  const variant =
    call.variantOf !== undefined
      ? ["variant (re-run with changes)"]
      : link
        ? [`variant ${link.setup.label}, turn ${link.turn + 1} (variants side by side)`]
        : [];
  return [...variant, `${call.messageCount} msgs`, usageLine(callTokens(call.outcome)), ...timing].join(
    " · ",
  );
}

export const STOP_LABELS: Record<string, string> = {
  stop: "done",
  toolUse: "tool use",
  length: "cut at max tokens",
  error: "error",
  aborted: "stopped",
  requestOnly: "request only, no reply",
};

export function stopLabel(call: CallRecord): string {
  return STOP_LABELS[call.outcome.stopReason] ?? call.outcome.stopReason;
}

/** A row's accessible name: its visible text in the order shown, after "Call". */
export function callRowLabel(call: CallRecord): string {
  return `Call #${call.seq + 1} ${call.provider}/${call.modelId}, ${stopLabel(call)}, ${formatTime(call.startedAt)}. ${callLine(call)}`;
}

/**
 * What a search in the calls list reads of a call: its row's text (number, provider and model, how it
 * ended, time, size, tokens), the stop reason as pi names it ("toolUse"), the API and the error message.
 */
export function callSearchText(call: CallRecord): string {
  return [callRowLabel(call), call.outcome.stopReason, call.api, call.outcome.errorMessage ?? ""].join("\n");
}
