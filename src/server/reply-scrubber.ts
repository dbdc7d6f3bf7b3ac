import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import type { Redactor } from "./redact.ts";

type DeltaType = "text_delta" | "thinking_delta" | "toolcall_delta";

interface Held {
  type: DeltaType;
  text: string;
}

/**
 * Scrubs secrets from the streamed deltas of one reply. A provider that echoes a key may split it across two
 * deltas ("sk-ab" then "cdef"), which no per-event replacement would catch. So each content block keeps back
 * the shortest tail that could still grow into a secret (usually nothing, since a tail must start like a
 * secret), and sends it with the next delta or just before the block ends, the reply finishes, or it fails.
 * Everything else in an event is scrubbed when the frame is serialized (see `Redactor.serialized`).
 */
export class ReplyScrubber {
  readonly #redactor: Redactor;
  readonly #held = new Map<number, Held>();

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  /** The events to send in place of `event`: none while a delta is held back entirely, two when a tail is released. */
  scrub(event: ProxyAssistantMessageEvent): ProxyAssistantMessageEvent[] {
    if (this.#redactor.secrets.length === 0) return [event];
    switch (event.type) {
      case "text_delta":
      case "thinking_delta":
      case "toolcall_delta":
        return this.#delta(event.type, event.contentIndex, event.delta);
      case "text_end":
      case "thinking_end":
      case "toolcall_end":
        return [...this.#release(event.contentIndex), event];
      case "done":
      case "error":
        return [
          ...[...this.#held.keys()].sort((a, b) => a - b).flatMap((index) => this.#release(index)),
          event,
        ];
      default:
        return [event];
    }
  }

  #delta(type: DeltaType, contentIndex: number, delta: string): ProxyAssistantMessageEvent[] {
    const held = this.#held.get(contentIndex);
    const text = this.#redactor.serialized(held ? held.text + delta : delta);
    const keep = this.#tailLength(text);
    if (keep === 0) this.#held.delete(contentIndex);
    else this.#held.set(contentIndex, { type, text: text.slice(text.length - keep) });
    const send = keep === 0 ? text : text.slice(0, text.length - keep);
    return send === "" ? [] : [{ type, contentIndex, delta: send }];
  }

  #release(contentIndex: number): ProxyAssistantMessageEvent[] {
    const held = this.#held.get(contentIndex);
    if (!held) return [];
    this.#held.delete(contentIndex);
    return [{ type: held.type, contentIndex, delta: held.text }];
  }

  /**
   * Length of the longest tail of `text` that is the start of a secret (and not a whole one, which was
   * already replaced). Only positions holding a secret's first character are tried, so the usual cost is
   * one `lastIndexOf` per secret over the last few characters.
   */
  #tailLength(text: string): number {
    let longest = 0;
    for (const secret of this.#redactor.secrets) {
      const window = Math.min(secret.length - 1, text.length);
      const first = secret.charAt(0);
      let at = text.lastIndexOf(first);
      while (at >= text.length - window && at >= 0) {
        const tail = text.length - at;
        if (tail > longest && secret.startsWith(text.slice(at))) longest = tail;
        at = at === 0 ? -1 : text.lastIndexOf(first, at - 1);
      }
    }
    return longest;
  }
}
