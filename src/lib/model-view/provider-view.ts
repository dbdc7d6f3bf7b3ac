import type {
  Api,
  AssistantMessage,
  ImageContent,
  Message,
  Model,
  SystemMessage,
  TextContent,
} from "@earendil-works/pi-ai";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import { countOf } from "../../shared/count-of.ts";
import { applyProviderTransform } from "./provider-transform.ts";

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
    default:
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

/** The provider view of `messages` (a model view) for `model`, through the transform of `model.api`'s adapter. */
export function providerView(messages: readonly Message[], model: Model<Api>): ProviderView {
  return traceProviderTransform(messages, applyProviderTransform(messages, model));
}

/**
 * Which message of `output` came from which of `input`, and what changed, read from the two lists alone:
 * object identity first (pi-ai returns an untouched message as the same object), then structure (a message
 * it rewrote keeps every top-level field but its content and tool-call id, spread from the original).
 * Nothing here knows pi-ai's rules; the output says what happened. Where two rules leave the same output,
 * the comments say which one is reported.
 */
export function traceProviderTransform(input: readonly Message[], output: Message[]): ProviderView {
  const tracer = new TransformTracer(input, output);
  return tracer.trace();
}

type Block = AssistantMessage["content"][number] | TextContent | ImageContent;

interface AssistantDiff {
  thinkingDropped: number;
  thinkingWithText: boolean;
  signaturesStripped: number;
  rewrites: { from: string; to: string }[];
}

/** How many input messages after the latest one linked are tried before looking up by timestamp. */
const NEARBY = 8;

interface Found {
  source: number;
  changes: ProviderChanges;
}

interface Candidates {
  indices: number[];
  /** Every index before this one is claimed. */
  next: number;
}

class TransformTracer {
  readonly #input: readonly Message[];
  readonly #output: Message[];
  readonly #sourceOf: Int32Array;
  readonly #targetOf: Int32Array;
  readonly #providerChanges: ProviderChanges[];
  readonly #modelChanges: ProviderChanges[];
  readonly #claimed: Uint8Array;
  /** Where each input message first is; built only when one is not where it is expected. */
  #indexOf: Map<Message, number> | undefined;
  /** Tool-call ids as they were → as they are sent, learnt from the assistant messages already traced. */
  readonly #rewrites = new Map<string, string>();
  #byTimestamp: Map<unknown, Candidates> | undefined;
  /** One past the latest input message linked so far: where the next rewritten message's original usually is. */
  #next = 0;

  constructor(input: readonly Message[], output: Message[]) {
    this.#input = input;
    this.#output = output;
    this.#sourceOf = new Int32Array(output.length).fill(-1);
    this.#targetOf = new Int32Array(input.length).fill(-1);
    this.#providerChanges = new Array<ProviderChanges>(output.length).fill(UNCHANGED);
    this.#modelChanges = new Array<ProviderChanges>(input.length).fill(UNCHANGED);
    this.#claimed = new Uint8Array(input.length);
  }

  trace(): ProviderView {
    const unmatched: number[] = [];
    for (let position = 0; position < this.#output.length; position++) {
      const message = this.#output[position] as Message;
      const found = this.#findNearby(message) ?? this.#findAnywhere(message);
      if (found) this.#link(position, found.source, found.changes);
      else unmatched.push(position);
    }
    const merged = this.#traceRebuiltSystem(unmatched);
    this.#traceAdded(unmatched);
    this.#traceDropped();
    this.#traceMoves(merged);
    return {
      messages: this.#output,
      sourceOf: this.#sourceOf,
      targetOf: this.#targetOf,
      providerChanges: this.#providerChanges,
      modelChanges: this.#modelChanges,
    };
  }

  #link(position: number, source: number, changes: ProviderChanges): void {
    this.#claimed[source] = 1;
    if (source >= this.#next) this.#next = source + 1;
    this.#sourceOf[position] = source;
    this.#targetOf[source] = position;
    this.#providerChanges[position] = changes;
    this.#modelChanges[source] = changes;
  }

  /**
   * The transform keeps the order (it only drops, inserts, and holds system messages back), so a message's
   * original is almost always the next unlinked input message, past any the transform dropped: the same
   * object when it was left alone, a copy with the same fields otherwise.
   */
  #findNearby(message: Message): Found | undefined {
    const end = Math.min(this.#input.length, this.#next + NEARBY);
    for (let index = this.#next; index < end; index++) {
      if (this.#input[index] === message && !this.#claimed[index])
        return { source: index, changes: UNCHANGED };
    }
    for (let index = this.#next; index < end; index++) {
      const derived = this.#derivedFrom(index, message);
      if (derived) return derived;
    }
    return undefined;
  }

  /** The slow way, for a held system message, a long run of dropped ones, or a message the transform added. */
  #findAnywhere(message: Message): Found | undefined {
    const first = this.#indexOfMessage().get(message);
    if (first !== undefined) {
      // The same object twice in the list: take its first unlinked occurrence.
      for (let index = first; index < this.#input.length; index++) {
        if (this.#input[index] === message && !this.#claimed[index])
          return { source: index, changes: UNCHANGED };
      }
    }
    // A rewritten message keeps its timestamp (pi-ai spreads the original); a synthetic one gets the
    // clock's, so it usually finds no candidate at all.
    const candidates = this.#candidatesAt(message.timestamp);
    if (!candidates) return undefined;
    while (
      candidates.next < candidates.indices.length &&
      this.#claimed[candidates.indices[candidates.next] as number]
    ) {
      candidates.next++;
    }
    for (let at = candidates.next; at < candidates.indices.length; at++) {
      const derived = this.#derivedFrom(candidates.indices[at] as number, message);
      if (derived) return derived;
    }
    return undefined;
  }

  /** `message` as a rewritten copy of input message `index`, with what the rewrite changed. */
  #derivedFrom(index: number, message: Message): Found | undefined {
    const original = this.#input[index] as Message;
    if (this.#claimed[index] || original.timestamp !== message.timestamp) return undefined;
    const changes = this.#changesIfDerived(original, message);
    return changes ? { source: index, changes } : undefined;
  }

  #indexOfMessage(): Map<Message, number> {
    if (!this.#indexOf) {
      this.#indexOf = new Map();
      for (let index = this.#input.length - 1; index >= 0; index--) {
        this.#indexOf.set(this.#input[index] as Message, index);
      }
    }
    return this.#indexOf;
  }

  #candidatesAt(timestamp: unknown): Candidates | undefined {
    if (!this.#byTimestamp) {
      this.#byTimestamp = new Map();
      for (let index = 0; index < this.#input.length; index++) {
        if (this.#claimed[index]) continue;
        const key: unknown = (this.#input[index] as Message).timestamp;
        const entry = this.#byTimestamp.get(key);
        if (entry) entry.indices.push(index);
        else this.#byTimestamp.set(key, { indices: [index], next: 0 });
      }
    }
    return this.#byTimestamp.get(timestamp);
  }

  /** The changes that turn `before` into `after`, or undefined when `after` is not a rewrite of `before`. */
  #changesIfDerived(before: Message, after: Message): ProviderChanges | undefined {
    if (before.role !== after.role || !sameFieldsBesidesContent(before, after)) return undefined;
    if (before.role === "assistant" && after.role === "assistant") {
      const diff = diffAssistantContent(before.content ?? [], after.content);
      if (!diff) return undefined;
      for (const rewrite of diff.rewrites) this.#rewrites.set(rewrite.from, rewrite.to);
      return assistantChanges(diff);
    }
    if (before.role === "toolResult" && after.role === "toolResult") {
      const sentId =
        before.toolCallId === after.toolCallId || this.#rewrites.get(before.toolCallId) === after.toolCallId;
      if (!sentId || !sameOrDowngraded(before.content, after.content)) return undefined;
      const changes: ProviderChange[] = [];
      if (before.toolCallId !== after.toolCallId) {
        changes.push({ kind: "tool-call-id-rewritten", from: before.toolCallId, to: after.toolCallId });
      }
      pushImageChange(changes, before.content, after.content);
      return changes.length > 0 ? changes : UNCHANGED;
    }
    if (before.role === "user" && after.role === "user") {
      if (!sameOrDowngraded(before.content, after.content)) return undefined;
      const changes: ProviderChange[] = [];
      pushImageChange(changes, before.content, after.content);
      return changes.length > 0 ? changes : UNCHANGED;
    }
    // System messages and roles pi-ai does not know: only an absent content read as empty is a rewrite.
    return sameOrEmptied(before.content, after.content) ? UNCHANGED : undefined;
  }

  /**
   * An output system message no input one explains is the leading system message rebuilt from all of them
   * (the transcript collapsed for a model without mid-conversation system messages). Returns its position.
   */
  #traceRebuiltSystem(unmatched: number[]): number {
    const rebuilt = unmatched.find((position) => (this.#output[position] as Message).role === "system");
    if (rebuilt === undefined) return -1;
    const folded: number[] = [];
    for (let index = 0; index < this.#input.length; index++) {
      if (!this.#claimed[index] && (this.#input[index] as Message).role === "system") folded.push(index);
    }
    const [first] = folded;
    if (first === undefined) return -1;
    const head = this.#output[rebuilt] as SystemMessage;
    // One leading system message rebuilt into the same prompt and tools is what was there: unchanged.
    const same =
      folded.length === 1 &&
      first === 0 &&
      rebuilt === 0 &&
      sameSystemPrompt(this.#input[0] as SystemMessage, head);
    const changes: ProviderChanges = same ? UNCHANGED : [{ kind: "system-merged", from: folded }];
    this.#link(rebuilt, first, changes);
    const into: ProviderChanges = [{ kind: "system-folded", into: rebuilt }];
    for (const index of folded.slice(1)) {
      this.#claimed[index] = 1;
      this.#targetOf[index] = rebuilt;
      this.#modelChanges[index] = into;
    }
    unmatched.splice(unmatched.indexOf(rebuilt), 1);
    return same ? -1 : rebuilt;
  }

  /** Output messages no input message explains: synthetic tool results, or anything a later pi-ai adds. */
  #traceAdded(unmatched: readonly number[]): void {
    if (unmatched.length === 0) return;
    const callAt = new Map<string, number>();
    let next = 0;
    for (let position = 0; position < this.#output.length; position++) {
      const message = this.#output[position] as Message;
      if (message.role === "assistant") {
        for (const block of message.content) if (block.type === "toolCall") callAt.set(block.id, position);
      }
      if (unmatched[next] !== position) continue;
      next++;
      if (message.role === "toolResult") {
        const callProviderIndex = callAt.get(message.toolCallId) ?? -1;
        this.#providerChanges[position] = [
          {
            kind: "placeholder-added",
            toolCallId: message.toolCallId,
            toolName: message.toolName,
            callProviderIndex,
            callModelIndex: callProviderIndex >= 0 ? (this.#sourceOf[callProviderIndex] as number) : -1,
          },
        ];
      } else {
        this.#providerChanges[position] = [{ kind: "added" }];
      }
    }
  }

  #traceDropped(): void {
    for (let index = 0; index < this.#input.length; index++) {
      if (this.#claimed[index]) continue;
      const message = this.#input[index] as Message;
      const stopReason = message.role === "assistant" ? message.stopReason : undefined;
      const reason: DropReason =
        stopReason === "error" || stopReason === "aborted" ? stopReason : "unexplained";
      this.#modelChanges[index] = [{ kind: "dropped", reason }];
    }
  }

  /**
   * A message placed after messages that came after it in the model view was held back. A system message
   * held only past synthetic results looks exactly like one the placeholders were inserted before, so only
   * a move past real messages is reported; the placeholders carry their own change. The rebuilt leading
   * system message is left out: its change says where it came from.
   */
  #traceMoves(merged: number): void {
    let latest = -1;
    for (let position = 0; position < this.#output.length; position++) {
      const source = this.#sourceOf[position] as number;
      if (source < 0 || position === merged) continue;
      if (source < latest) this.#markMoved(position, source, merged);
      else latest = source;
    }
  }

  #markMoved(position: number, source: number, merged: number): void {
    let heldPast = 0;
    for (let earlier = 0; earlier < position; earlier++) {
      if (earlier !== merged && (this.#sourceOf[earlier] as number) > source) heldPast++;
    }
    const role = (this.#output[position] as Message).role;
    const move: ProviderChange =
      role === "system" ? { kind: "system-moved", heldPast } : { kind: "reordered", heldPast };
    const before = this.#providerChanges[position] as ProviderChanges;
    const changes = before === UNCHANGED ? [move] : [...before, move];
    this.#providerChanges[position] = changes;
    this.#modelChanges[source] = changes;
  }
}

const REWRITABLE_FIELDS = new Set(["content", "toolCallId"]);

/** Every top-level field but content and tool-call id is the very same value on both sides. */
function sameFieldsBesidesContent(before: object, after: object): boolean {
  const left = before as Record<string, unknown>;
  const right = after as Record<string, unknown>;
  for (const key in left) if (!REWRITABLE_FIELDS.has(key) && left[key] !== right[key]) return false;
  for (const key in right) if (!REWRITABLE_FIELDS.has(key) && left[key] !== right[key]) return false;
  return true;
}

function sameOrEmptied(before: unknown, after: unknown): boolean {
  return before === after || (before == null && Array.isArray(after) && after.length === 0);
}

/**
 * Whether `after` is `before` with its images taken out: every other block the very same object, in order,
 * and at most one new text block where a run of images was (the placeholder; none when a placeholder
 * already stood right before the run).
 */
function sameOrDowngraded(before: unknown, after: unknown): boolean {
  if (sameOrEmptied(before, after)) return true;
  if (!Array.isArray(before) || !Array.isArray(after)) return false;
  const blocks = before as readonly Block[];
  let next = 0;
  let inImageRun = false;
  for (const block of blocks) {
    if (block.type === "image") {
      const sent = after[next] as Block | undefined;
      if (!inImageRun && sent?.type === "text" && !blocks.includes(sent)) next++;
      inImageRun = true;
      continue;
    }
    inImageRun = false;
    if (after[next] !== block) return false;
    next++;
  }
  return next === after.length;
}

function imageCount(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let images = 0;
  for (const block of content as readonly Block[]) if (block.type === "image") images++;
  return images;
}

function pushImageChange(changes: ProviderChange[], before: unknown, after: unknown): void {
  const images = imageCount(before) - imageCount(after);
  if (images > 0) changes.push({ kind: "images-downgraded", images });
}

/**
 * Aligns an assistant message's blocks with the blocks sent. A block sent as the very same object is kept;
 * one of the same type and the same text, or the same tool name and arguments, was rebuilt (its id or
 * signature may differ); a thinking block with no counterpart was dropped. Anything else: not this message.
 */
function diffAssistantContent(before: readonly Block[], after: readonly Block[]): AssistantDiff | undefined {
  const diff: AssistantDiff = {
    thinkingDropped: 0,
    thinkingWithText: false,
    signaturesStripped: 0,
    rewrites: [],
  };
  let next = 0;
  for (const block of before) {
    const sent = after[next];
    if (sent === block) {
      next++;
      continue;
    }
    if (sent !== undefined && rebuiltFrom(block, sent, diff)) {
      next++;
      continue;
    }
    if (block.type !== "thinking") return undefined;
    diff.thinkingDropped++;
    if (block.thinking.trim() !== "") diff.thinkingWithText = true;
  }
  return next === after.length ? diff : undefined;
}

function rebuiltFrom(block: Block, sent: Block, diff: AssistantDiff): boolean {
  if (block.type === "text" && sent.type === "text") {
    if (block.text !== sent.text) return false;
    if (block.textSignature !== undefined && sent.textSignature === undefined) diff.signaturesStripped++;
    return true;
  }
  if (block.type === "toolCall" && sent.type === "toolCall") {
    if (block.name !== sent.name || block.arguments !== sent.arguments) return false;
    if (block.thoughtSignature !== undefined && sent.thoughtSignature === undefined)
      diff.signaturesStripped++;
    if (block.id !== sent.id) diff.rewrites.push({ from: block.id, to: sent.id });
    return true;
  }
  if (block.type === "thinking" && sent.type === "thinking") return block.thinking === sent.thinking;
  return false;
}

function assistantChanges(diff: AssistantDiff): ProviderChanges {
  const changes: ProviderChange[] = [];
  if (diff.thinkingDropped > 0) {
    changes.push({
      kind: "thinking-dropped",
      blocks: diff.thinkingDropped,
      reason: diff.thinkingWithText ? "another-model" : "empty",
    });
  }
  for (const { from, to } of diff.rewrites) changes.push({ kind: "tool-call-id-rewritten", from, to });
  if (diff.signaturesStripped > 0)
    changes.push({ kind: "signature-stripped", blocks: diff.signaturesStripped });
  return changes.length > 0 ? changes : UNCHANGED;
}

/** The same prompt text and the same tools, in order: what a provider receives of a system message. */
function sameSystemPrompt(before: SystemMessage, after: SystemMessage): boolean {
  const toolsBefore = before.toolsAdded ?? [];
  const toolsAfter = after.toolsAdded ?? [];
  return (
    getSystemMessageText(before) === getSystemMessageText(after) &&
    (before.toolsRemoved ?? []).length === 0 &&
    toolsBefore.length === toolsAfter.length &&
    toolsBefore.every((tool, index) => tool === toolsAfter[index])
  );
}
