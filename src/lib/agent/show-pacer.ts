/**
 * The least time between two showings of what streams: every other frame at 60 Hz (every third at 120).
 * Each showing costs a render, a Markdown pass and a layout and paint of the page, whatever the number
 * of tokens it adds; text growing 30 times a second reads as smoothly as 60.
 */
export const SHOW_INTERVAL_MS = 25;

/** Where frames come from: the browser's, or a timer where there are none (as in unit tests). */
export interface Frames {
  now(): number;
  request(callback: (time: number) => void): number;
  cancel(handle: number): void;
}

const clock = (): number => (typeof performance === "object" ? performance.now() : Date.now());

export const browserFrames: Frames = {
  now: clock,
  request: (callback) =>
    typeof requestAnimationFrame === "function"
      ? requestAnimationFrame(callback)
      : (setTimeout(() => callback(clock()), 16) as unknown as number),
  cancel: (handle) => {
    if (typeof cancelAnimationFrame === "function") cancelAnimationFrame(handle);
    else clearTimeout(handle);
  },
};

/**
 * Paces the showing of something that streams: however often it is asked for, `show` runs on a frame, at
 * most every `SHOW_INTERVAL_MS`, and what arrived meanwhile is shown together then. The chat's reply and
 * the variants' columns stream at the same pace through it.
 */
export class ShowPacer {
  readonly #show: (time: number) => boolean;
  readonly #frames: Frames;
  readonly #interval: number;
  #frame: number | undefined;
  #shownAt = Number.NEGATIVE_INFINITY;

  /** `show` returns whether it showed anything (nothing new: the next showing need not wait). */
  constructor(
    show: (time: number) => boolean,
    { frames = browserFrames, interval = SHOW_INTERVAL_MS }: { frames?: Frames; interval?: number } = {},
  ) {
    this.#show = show;
    this.#frames = frames;
    this.#interval = interval;
  }

  /** Something new arrived: show it on the first frame the interval allows (one frame asked at a time). */
  ask(): void {
    if (this.#frame === undefined) this.#frame = this.#frames.request((time) => this.#onFrame(time));
  }

  /** It was shown just now, outside the pacer (a stream's start): the next showing waits from here. */
  shownNow(): void {
    this.#shownAt = this.#frames.now();
  }

  /** Nothing streams any more: a showing asked for does not come. */
  cancel(): void {
    if (this.#frame !== undefined) this.#frames.cancel(this.#frame);
    this.#frame = undefined;
  }

  #onFrame(time: number): void {
    // Too soon after the last showing: wait for a later frame (what streams keeps gathering meanwhile).
    if (time - this.#shownAt < this.#interval) {
      this.#frame = this.#frames.request((later) => this.#onFrame(later));
      return;
    }
    this.#frame = undefined;
    if (this.#show(time)) this.#shownAt = time;
  }
}
