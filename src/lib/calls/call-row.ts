import { callTokens } from "../agent/recording/call-tokens.ts";
import type { CallRecord } from "../storage/records.ts";
import { formatTime } from "../ui/format.ts";
import { usageLine } from "../models/usage-text.ts";

export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** One line per call for the list: model, size, tokens, cost, time, and how it ended. */
export function callLine(call: CallRecord): string {
  const timing = [formatDuration(call.timing.durationMs)];
  if (call.timing.firstTokenMs !== undefined)
    timing.push(`first token ${formatDuration(call.timing.firstTokenMs)}`);
  const variant = call.variantOf === undefined ? [] : ["variant (re-run with changes)"];
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
};

export function stopLabel(call: CallRecord): string {
  return STOP_LABELS[call.outcome.stopReason] ?? call.outcome.stopReason;
}

/** A row's accessible name: its visible text in the order shown, after "Call". */
export function callRowLabel(call: CallRecord): string {
  return `Call #${call.seq + 1} ${call.provider}/${call.modelId}, ${stopLabel(call)}, ${formatTime(call.startedAt)}. ${callLine(call)}`;
}
