import type { Message } from "@earendil-works/pi-ai";

/**
 * What the provider view records: the tracer (provider-trace.ts) finds these changes, the labels
 * (provider-change-labels.ts) say them, and the inspector and the calls view show them.
 */

/** Why the transform left a model-view message out. */
export type DropReason = "error" | "aborted" | "unexplained";

/**
 * One thing the provider transform did to a message. A message can have several (an assistant reply from
 * another model can lose its thinking, a signature and have its tool-call ids rewritten); one with none has
 * exactly `{ kind: "unchanged" }`.
 */
export type ProviderChange =
  | { kind: "unchanged" }
  /** Model view only. `unexplained`: gone without being an assistant reply that ended in error or aborted. */
  | { kind: "dropped"; reason: DropReason }
  /** Provider view only: a synthetic error result for a call left without one, and where that call is. */
  | {
      kind: "placeholder-added";
      toolCallId: string;
      toolName: string;
      /** Provider index of the assistant message that made the call, or -1 if none before it did. */
      callProviderIndex: number;
      /** Model-view index of that assistant message, or -1. */
      callModelIndex: number;
    }
  /** `another-model`: at least one dropped block had text; `empty`: all of them were blank. */
  | { kind: "thinking-dropped"; blocks: number; reason: "another-model" | "empty" }
  | { kind: "tool-call-id-rewritten"; from: string; to: string }
  /** Text and tool-call blocks that lost the signature another model gave them. */
  | { kind: "signature-stripped"; blocks: number }
  | { kind: "images-downgraded"; images: number }
  /** Now after `heldPast` messages that came after it in the model view: held until after tool results. */
  | { kind: "system-moved"; heldPast: number }
  /** The leading system message rebuilt from these model-view system messages (prompt and tools replayed). */
  | { kind: "system-merged"; from: readonly number[] }
  /** Model view only: a system message replayed into the rebuilt leading one, at provider index `into`. */
  | { kind: "system-folded"; into: number }
  /** Fallbacks no rule of pi-ai 1.6 produces, so that a change in a later version shows rather than hides. */
  | { kind: "reordered"; heldPast: number }
  | { kind: "added" };

export type ProviderChangeKind = ProviderChange["kind"];
export type ProviderChanges = readonly ProviderChange[];

/**
 * The provider view with provenance both ways: the messages a provider adapter builds its request from
 * (pi-ai's own transform of the model view), which model-view message each one came from, and what the
 * transform did to every message of both lists.
 */
export interface ProviderView {
  messages: Message[];
  /** Model-view index of each provider message, or -1 for one the transform added. */
  sourceOf: Int32Array;
  /**
   * Provider index of each model-view message, or -1 when it was dropped. A system message folded into the
   * rebuilt leading system message points at that message.
   */
  targetOf: Int32Array;
  /** What happened to each provider message. */
  providerChanges: readonly ProviderChanges[];
  /** What happened to each model-view message. */
  modelChanges: readonly ProviderChanges[];
}

export const UNCHANGED: ProviderChanges = Object.freeze([Object.freeze({ kind: "unchanged" as const })]);
