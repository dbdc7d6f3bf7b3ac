/**
 * The request bytes all requests hold at once. Each request's body is read whole before it is checked (a
 * slow upload must not hold a stream slot), so without a shared bound any number of concurrent uploads
 * would each hold up to the body limit: sixteen 18 MB previews held over half a gigabyte. A request takes
 * its body's bytes from here as they are declared or arrive, and gives them back when its answer ends.
 */
export class BodyBudget {
  readonly #limit: number;
  #held = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get limit(): number {
    return this.#limit;
  }

  /** Bytes held by requests now. */
  get held(): number {
    return this.#held;
  }

  /** A request's share: it takes bytes as it reads, and gives them all back once. */
  open(): BodyShare {
    let taken = 0;
    let closed = false;
    return {
      take: (bytes) => {
        if (closed) return false;
        // One body always fits when nothing else is held, however large the limit allows bodies to be.
        if (this.#held > 0 && this.#held + bytes > this.#limit) return false;
        this.#held += bytes;
        taken += bytes;
        return true;
      },
      release: () => {
        if (closed) return;
        closed = true;
        this.#held -= taken;
        taken = 0;
      },
    };
  }
}

export interface BodyShare {
  /** Takes `bytes` more for this request; false when they would pass the shared limit (nothing is taken). */
  take(bytes: number): boolean;
  /** Gives back everything this request took. Idempotent. */
  release(): void;
}
