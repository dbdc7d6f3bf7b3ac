/**
 * The time for what is told relative to now ("2 min ago"): it moves on while something ticks it, so such
 * words do not stay as they were when first shown.
 */
export class Clock {
  #now = $state(Date.now());
  readonly #read: () => number;

  constructor(read: () => number = Date.now) {
    this.#read = read;
    this.#now = read();
  }

  get now(): number {
    return this.#now;
  }

  /** Move on every `intervalMs` until the returned function is called (an effect's cleanup). */
  tick(intervalMs: number): () => void {
    this.#now = this.#read();
    const timer = setInterval(() => (this.#now = this.#read()), intervalMs);
    return () => clearInterval(timer);
  }
}
