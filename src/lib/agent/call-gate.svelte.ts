/** What a held call that was cancelled says where the reply would have been. */
export const CANCELLED_BEFORE_SENDING = "Cancelled before it was sent: the model never received this call.";

/**
 * One session's model call held before it leaves the page. The run waits in pi's `prepareRequest` (the
 * last step before the stream function) until the person continues; aborting the run (Cancel, Stop,
 * Escape, leaving the session) ends the wait with an error, so the loop ends the run before any request
 * is made.
 */
export class CallGate {
  #held = $state(false);
  /** How many calls this session has held, so a view can tell one hold from the next. */
  #holds = $state(0);
  #release: (() => void) | undefined;

  get held(): boolean {
    return this.#held;
  }

  get holds(): number {
    return this.#holds;
  }

  /** Wait for Continue. Rejects at once when the run is already aborted, or later when it is. */
  hold(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new Error(CANCELLED_BEFORE_SENDING));
    return new Promise<void>((resolve, reject) => {
      const cancelled = () => {
        this.#end();
        reject(new Error(CANCELLED_BEFORE_SENDING));
      };
      signal?.addEventListener("abort", cancelled, { once: true });
      this.#release = () => {
        signal?.removeEventListener("abort", cancelled);
        this.#end();
        resolve();
      };
      this.#held = true;
      this.#holds++;
    });
  }

  /** Let the held call go. */
  continue(): void {
    this.#release?.();
  }

  #end(): void {
    this.#held = false;
    this.#release = undefined;
  }
}
