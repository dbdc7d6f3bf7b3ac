import type { Message } from "@earendil-works/pi-ai";
import { describeChange } from "../model-view/provider-change-labels.ts";
import type { ProviderChange, ProviderChanges, ProviderView } from "../model-view/provider-changes.ts";
import type { CallBodyRecord } from "../storage/records.ts";

/** What the call detail shows of a call besides its header: one tab per layer, and ways to compare them. */

export type CallTab = "pi" | "sent" | "provider" | "payload" | "layers" | "diff" | "code";

export const CALL_TABS: readonly { id: CallTab; label: string }[] = [
  { id: "sent", label: "Model view as sent" },
  { id: "provider", label: "Provider view" },
  { id: "payload", label: "Provider payload" },
  { id: "layers", label: "All three side by side" },
  { id: "diff", label: "Diff with previous call" },
  { id: "code", label: "As code" },
];

/** A live pi's call has one layer more, first: pi's own transcript, held against the session's entries. */
export const PI_TAB: { id: CallTab; label: string } = { id: "pi", label: "pi's transcript" };

export function callTabs(body: CallBodyRecord | undefined): readonly { id: CallTab; label: string }[] {
  return body?.pi ? [PI_TAB, ...CALL_TABS] : CALL_TABS;
}

/**
 * The messages a call sent, when its body kept them whole: the provider view, the diff and the code are
 * built from the whole list, and part of one would show a request that was never made.
 */
export function keptMessages(body: CallBodyRecord | undefined): readonly Message[] | undefined {
  return body?.messages.kept === "all" ? body.messages.value : undefined;
}

/** The changes a provider message is badged with: what the transform did to it, if anything. */
export function shownChanges(changes: ProviderChanges | undefined): ProviderChange[] {
  return (changes ?? []).filter((change) => change.kind !== "unchanged");
}

/**
 * The model-view messages the provider view leaves out, each with why: "message 11 (dropped: aborted)".
 * Undefined when every message is sent.
 */
export function notSentSummary(view: ProviderView): string | undefined {
  const dropped = view.modelChanges.flatMap((changes, index) =>
    changes.some((change) => change.kind === "dropped") ? [index] : [],
  );
  if (dropped.length === 0) return undefined;
  return dropped
    .map((index) => {
      const change = view.modelChanges[index]?.find((candidate) => candidate.kind === "dropped");
      return `message ${index + 1} (${change ? describeChange(change) : "dropped"})`;
    })
    .join(", ");
}

/**
 * What a shorter shared start means for the prompt cache, to follow "share their first N messages":
 * a provider's cache matches a prefix, so it stops at the first message the two requests differ in.
 */
export function cacheStopNote(commonPrefix: number, previousLength: number): string {
  return commonPrefix < previousLength
    ? `; from message ${commonPrefix + 1} on they differ, so a provider's prompt cache stops matching there`
    : "";
}
