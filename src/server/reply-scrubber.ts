import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { REDACTED } from "../shared/url-secrets.ts";
import { secretPattern, type Redactor } from "./redact.ts";

type DeltaType = "text_delta" | "thinking_delta" | "toolcall_delta";

/** Hold-backs are rounded up to this, so that they do not tell the exact length of the longest secret. */
const HOLD_BACK_STEP = 32;

/**
 * Scrubs secrets from the streamed deltas of one reply. A provider that echoes a key may split it across two
 * deltas ("sk-ab" then "cdef"), which no per-event replacement would catch, so each content block keeps the
 * last characters it received back until more arrive or the block ends.
 *
 * How much is kept back never depends on what the text says: always the same number of characters (the
 * longest secret's length, rounded up), whether or not the tail could begin a secret. A scrubber that held
 * back only tails that start like a secret told anyone who could make the model echo a guess (the offline
 * models quote the prompt; any model can be asked to) whether the guess begins a key, by where the pieces
 * of the reply broke: a key could be read one character at a time. Here the pieces sent depend only on how
 * many characters arrived and on whole secrets, which are replaced.
 *
 * Everything else in an event is scrubbed when the frame is serialized (see `Redactor.serialized`).
 */
export class ReplyScrubber {
  readonly #pattern: RegExp | undefined;
  readonly #holdBack: number;
  readonly #blocks = new Map<number, BlockScrubber>();

  constructor(redactor: Redactor) {
    const longest = redactor.secrets.reduce((max, secret) => Math.max(max, secret.length), 0);
    this.#pattern = secretPattern(redactor.secrets);
    this.#holdBack = Math.ceil(longest / HOLD_BACK_STEP) * HOLD_BACK_STEP;
  }

  /** How many characters of each block are kept back until more arrive (0 without secrets). */
  get holdBack(): number {
    return this.#holdBack;
  }

  /** The events to send in place of `event`: none while a delta is held back entirely, two when a tail is released. */
  scrub(event: ProxyAssistantMessageEvent): ProxyAssistantMessageEvent[] {
    if (!this.#pattern) return [event];
    switch (event.type) {
      case "text_delta":
      case "thinking_delta":
      case "toolcall_delta": {
        let block = this.#blocks.get(event.contentIndex);
        if (!block) {
          block = new BlockScrubber(event.type, this.#pattern, this.#holdBack);
          this.#blocks.set(event.contentIndex, block);
        }
        return deltaEvent(block.type, event.contentIndex, block.push(event.delta));
      }
      case "text_end":
      case "thinking_end":
      case "toolcall_end":
        return [...this.#release(event.contentIndex), event];
      case "done":
      case "error":
        return [
          ...[...this.#blocks.keys()].sort((a, b) => a - b).flatMap((index) => this.#release(index)),
          event,
        ];
      // A block's start carries no text to scrub.
      case "start":
      case "text_start":
      case "thinking_start":
      case "toolcall_start":
        return [event];
    }
  }

  #release(contentIndex: number): ProxyAssistantMessageEvent[] {
    const block = this.#blocks.get(contentIndex);
    if (!block) return [];
    this.#blocks.delete(contentIndex);
    return deltaEvent(block.type, contentIndex, block.flush());
  }
}

function deltaEvent(type: DeltaType, contentIndex: number, delta: string): ProxyAssistantMessageEvent[] {
  return delta === "" ? [] : [{ type, contentIndex, delta }];
}

/**
 * One content block's text not sent yet. What it sends is the scrubbed text up to `holdBack` characters
 * before the end of what arrived: any secret that starts before that point has arrived whole (no secret is
 * longer than the hold-back), so it is found and replaced, never cut in two. A secret that starts before the
 * point and ends after it is sent whole, as the marker: the scrubbed text, cut at lengths that depend on
 * nothing but the number of characters received.
 */
class BlockScrubber {
  readonly type: DeltaType;
  readonly #pattern: RegExp;
  readonly #holdBack: number;
  #unsent = "";

  constructor(type: DeltaType, pattern: RegExp, holdBack: number) {
    this.type = type;
    this.#pattern = pattern;
    this.#holdBack = holdBack;
  }

  push(delta: string): string {
    this.#unsent += delta;
    return this.#take(this.#unsent.length - this.#holdBack);
  }

  flush(): string {
    return this.#take(this.#unsent.length);
  }

  /** The scrubbed text before `cut`, which is then forgotten. */
  #take(cut: number): string {
    if (cut <= 0) return "";
    const text = this.#unsent;
    const pattern = this.#pattern;
    let sent = "";
    let from = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match && match.index < cut; match = pattern.exec(text)) {
      sent += text.slice(from, match.index) + REDACTED;
      from = match.index + match[0].length;
    }
    const end = Math.max(from, cut);
    sent += text.slice(from, end);
    this.#unsent = text.slice(end);
    return sent;
  }
}
