import type { AssistantMessage } from "@earendil-works/pi-ai";

/** Where the reply in progress is kept while it streams, so a reload can restore it as interrupted. */
export interface InflightStore {
  save(message: AssistantMessage): Promise<void>;
}

const SAVE_INTERVAL_MS = 750;

const nextFrame = (callback: () => void): number =>
  typeof requestAnimationFrame === "function"
    ? requestAnimationFrame(callback)
    : (setTimeout(callback, 16) as unknown as number);

const cancelFrame = (handle: number | undefined): void => {
  if (handle === undefined) return;
  if (typeof cancelAnimationFrame === "function") cancelAnimationFrame(handle);
  else clearTimeout(handle);
};

/** A copy whose content blocks are new objects: the proxy stream mutates its partial message in place. */
function snapshot(message: AssistantMessage): AssistantMessage {
  return { ...message, content: message.content.map((block) => ({ ...block })) };
}

/**
 * The assistant reply being streamed. Tokens can arrive faster than the screen refreshes, so the shown
 * message follows at most once per frame, with everything received by then: rendering costs per frame,
 * not per token. It is also written to storage every so often (and at once when the page is hidden).
 */
export class StreamingReply {
  readonly #store: InflightStore;
  #current = $state.raw<AssistantMessage | undefined>(undefined);
  #latest: AssistantMessage | undefined;
  #frame: number | undefined;
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
  }

  update(message: AssistantMessage): void {
    this.#latest = message;
    this.#save(false);
    if (this.#frame !== undefined) return;
    this.#frame = nextFrame(() => {
      this.#frame = undefined;
      if (this.#latest) this.#current = snapshot(this.#latest);
    });
  }

  /** The reply is final, or the run ended: nothing streams any more. */
  stop(): void {
    cancelFrame(this.#frame);
    this.#frame = undefined;
    this.#latest = undefined;
    this.#current = undefined;
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
