import type { Usage } from "@earendil-works/pi-ai";
import type { CallRecord } from "../storage/records.ts";
import { formatCost, formatTime, formatTokens } from "../ui/format.ts";

/**
 * Token numbers as the playground shows them everywhere: input not served from a cache, input read from
 * a cache, input written to one, and output, each on its own.
 */
export function usageParts(usage: Usage): string[] {
  const parts = [`in ${formatTokens(usage.input)}`];
  if (usage.cacheRead > 0) parts.push(`cached ${formatTokens(usage.cacheRead)}`);
  if (usage.cacheWrite > 0) parts.push(`cache write ${formatTokens(usage.cacheWrite)}`);
  parts.push(`out ${formatTokens(usage.output)}`);
  return parts;
}

export function formatDuration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** One line per call for the list: model, size, tokens, cost, time, and how it ended. */
export function callLine(call: CallRecord): string {
  const { usage } = call.outcome;
  const timing = [formatDuration(call.timing.durationMs)];
  if (call.timing.firstTokenMs !== undefined)
    timing.push(`first token ${formatDuration(call.timing.firstTokenMs)}`);
  return [`${call.messageCount} msgs`, ...usageParts(usage), formatCost(usage.cost.total), ...timing].join(
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
