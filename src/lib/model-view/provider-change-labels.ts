import { countOf } from "../../shared/count-of.ts";
import type { ProviderChange, ProviderView } from "./provider-changes.ts";

/**
 * What each change is called wherever it is shown (the inspector's provider view, the facts column), one
 * entry per kind and reason. Details (which ids, how many blocks) come from `describeChange`.
 */
export const PROVIDER_CHANGE_LABELS = {
  unchanged: "unchanged",
  "dropped:error": "dropped: reply ended in error",
  "dropped:aborted": "dropped: aborted",
  "dropped:unexplained": "dropped by the provider transform",
  "placeholder-added": "placeholder result added",
  "thinking-dropped:another-model": "thinking from another model dropped",
  "thinking-dropped:empty": "empty thinking dropped",
  "tool-call-id-rewritten": "tool call id rewritten",
  "signature-stripped": "another model's signature stripped",
  "images-downgraded": "images replaced by a note (model takes no images)",
  "system-moved": "system message held until after the tool results",
  "system-merged": "system prompt rebuilt from the system messages",
  "system-folded": "folded into the leading system prompt",
  reordered: "moved by the provider transform",
  added: "added by the provider transform",
} as const;

export type ProviderChangeLabelKey = keyof typeof PROVIDER_CHANGE_LABELS;

export function changeLabelKey(change: ProviderChange): ProviderChangeLabelKey {
  switch (change.kind) {
    case "dropped":
      return `dropped:${change.reason}`;
    case "thinking-dropped":
      return `thinking-dropped:${change.reason}`;
    case "unchanged":
    case "added":
    case "reordered":
    case "placeholder-added":
    case "images-downgraded":
    case "signature-stripped":
    case "tool-call-id-rewritten":
    case "system-moved":
    case "system-merged":
    case "system-folded":
      return change.kind;
  }
}

export function changeLabel(change: ProviderChange): string {
  return PROVIDER_CHANGE_LABELS[changeLabelKey(change)];
}

/** The label with the change's particulars: "tool call id rewritten: call_1|fc_2 → call_1_fc_2". */
export function describeChange(change: ProviderChange): string {
  const label = changeLabel(change);
  switch (change.kind) {
    case "placeholder-added":
      return `${label} for ${change.toolName} (${change.toolCallId})`;
    case "thinking-dropped":
      return `${label} (${countOf(change.blocks, "block")})`;
    case "tool-call-id-rewritten":
      return `${label}: ${change.from} → ${change.to}`;
    case "signature-stripped":
      return `${label} (${countOf(change.blocks, "block")})`;
    case "images-downgraded":
      return `${label} (${countOf(change.images, "image")})`;
    case "system-moved":
    case "reordered":
      return `${label} (after ${countOf(change.heldPast, "later message")})`;
    case "system-merged":
      return `${label} (${countOf(change.from.length, "system message")})`;
    case "unchanged":
    case "dropped":
    case "system-folded":
    case "added":
      return label;
  }
}

/** "9 model messages → 8 provider messages: 1 dropped, 1 placeholder added". */
export function summarizeProviderView(view: ProviderView): string {
  let dropped = 0;
  let folded = 0;
  let added = 0;
  let rewritten = 0;
  for (const changes of view.modelChanges) {
    for (const change of changes) {
      if (change.kind === "dropped") dropped++;
      else if (change.kind === "system-folded") folded++;
    }
  }
  for (const changes of view.providerChanges) {
    for (const change of changes) {
      if (change.kind === "placeholder-added" || change.kind === "added") added++;
      else if (change.kind === "tool-call-id-rewritten") rewritten++;
    }
  }
  const parts: string[] = [];
  if (dropped) parts.push(`${dropped} dropped`);
  if (folded) parts.push(`${folded} folded into the system prompt`);
  if (added) parts.push(`${added} added`);
  if (rewritten) parts.push(countOf(rewritten, "tool call id") + " rewritten");
  const head = `${countOf(view.modelChanges.length, "model message")} → ${countOf(view.messages.length, "provider message")}`;
  return parts.length > 0 ? `${head}: ${parts.join(", ")}` : head;
}
