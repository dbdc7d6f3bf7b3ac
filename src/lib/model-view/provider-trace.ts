import type { Message, SystemMessage } from "@earendil-works/pi-ai";
import { rewriteChanges, sameSystemPrompt } from "./message-rewrites.ts";
import {
  UNCHANGED,
  type DropReason,
  type ProviderChange,
  type ProviderChanges,
  type ProviderView,
} from "./provider-changes.ts";

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
    const changes = rewriteChanges(original, message, this.#rewrites);
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
