import type { AssistantMessage } from "@earendil-works/pi-ai";
import { ShowPacer } from "./show-pacer.ts";

/** Where the reply in progress is kept while it streams, so a reload can restore it as interrupted. */
export interface InflightStore {
  save(message: AssistantMessage): Promise<void>;
}

const SAVE_INTERVAL_MS = 750;

/** A copy whose content blocks are new objects: the proxy stream mutates its partial message in place. */
function snapshot(message: AssistantMessage): AssistantMessage {
  return { ...message, content: message.content.map((block) => ({ ...block })) };
}

/**
 * The assistant reply being streamed. Tokens arrive faster than the screen refreshes, so the shown
 * message follows on a frame at most every `SHOW_INTERVAL_MS`, with everything received by then:
 * rendering costs per showing, not per token. It is also written to storage every so often (and at once
 * when the page is hidden).
 */
export class StreamingReply {
  readonly #store: InflightStore;
  #current = $state.raw<AssistantMessage | undefined>(undefined);
  #latest: AssistantMessage | undefined;
  readonly #pacer = new ShowPacer(() => this.#show());
  #savedAt = 0;

  constructor(store: InflightStore) {
    this.#store = store;
  }

  /** A reply is streaming (shown or not yet). */
  get active(): boolean {
    return this.#latest !== undefined;
  }

  /** The reply as last shown; undefined when nothing streams. */
  get current(): AssistantMessage | undefined {
    return this.#current;
  }

  start(message: AssistantMessage): void {
    this.#latest = message;
    this.#current = snapshot(message);
    this.#pacer.shownNow();
  }

  update(message: AssistantMessage): void {
    this.#latest = message;
    this.#save(false);
    this.#pacer.ask();
  }

  /** The reply is final, or the run ended: nothing streams any more. */
  stop(): void {
    this.#pacer.cancel();
    this.#latest = undefined;
    this.#current = undefined;
  }

  #show(): boolean {
    if (!this.#latest) return false;
    this.#current = snapshot(this.#latest);
    return true;
  }

  /** Save right away: the page is being hidden or unloaded. */
  saveNow(): void {
    this.#save(true);
  }

  #save(force: boolean): void {
    const latest = this.#latest;
    const now = Date.now();
    if (!latest || (!force && now - this.#savedAt < SAVE_INTERVAL_MS)) return;
    this.#savedAt = now;
    void this.#store.save(snapshot(latest)).catch(() => undefined);
  }
}
