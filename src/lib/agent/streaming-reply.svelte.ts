import type { AssistantMessage } from "@earendil-works/pi-ai";

/** Where the reply in progress is kept while it streams, so a reload can restore it as interrupted. */
export interface InflightStore {
  save(message: AssistantMessage): Promise<void>;
}

const SAVE_INTERVAL_MS = 750;
/**
 * The least time between two showings of the reply: every other frame at 60 Hz (every third at 120).
 * Each showing costs a render, a Markdown pass and a layout and paint of the page, whatever the number
 * of tokens it adds; text growing 30 times a second reads as smoothly as 60.
 */
export const SHOW_INTERVAL_MS = 25;

const clock = (): number => (typeof performance === "object" ? performance.now() : Date.now());

const nextFrame = (callback: (time: number) => void): number =>
  typeof requestAnimationFrame === "function"
    ? requestAnimationFrame(callback)
    : (setTimeout(() => callback(clock()), 16) as unknown as number);

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
 * The assistant reply being streamed. Tokens arrive faster than the screen refreshes, so the shown
 * message follows on a frame at most every `SHOW_INTERVAL_MS`, with everything received by then:
 * rendering costs per showing, not per token. It is also written to storage every so often (and at once
 * when the page is hidden).
 */
export class StreamingReply {
  readonly #store: InflightStore;
  #current = $state.raw<AssistantMessage | undefined>(undefined);
  #latest: AssistantMessage | undefined;
  #frame: number | undefined;
  #shownAt = Number.NEGATIVE_INFINITY;
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
    this.#shownAt = clock();
  }

  update(message: AssistantMessage): void {
    this.#latest = message;
    this.#save(false);
    if (this.#frame === undefined) this.#frame = nextFrame((time) => this.#show(time));
  }

  /** The reply is final, or the run ended: nothing streams any more. */
  stop(): void {
    cancelFrame(this.#frame);
    this.#frame = undefined;
    this.#latest = undefined;
    this.#current = undefined;
  }

  #show(time: number): void {
    // Too soon after the last showing: wait for a later frame (the tokens keep gathering meanwhile).
    if (time - this.#shownAt < SHOW_INTERVAL_MS) {
      this.#frame = nextFrame((later) => this.#show(later));
      return;
    }
    this.#frame = undefined;
    if (!this.#latest) return;
    this.#current = snapshot(this.#latest);
    this.#shownAt = time;
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
