/**
 * Coordination between tabs that have the same sessions open: a BroadcastChannel tells the others what
 * was written, and Web Locks make sure only one tab at a time runs or writes a given session.
 */
export type SyncMessage =
  | { type: "written"; sessionId: string; appended: number[]; replaced: number[] }
  | { type: "meta"; sessionId: string }
  | { type: "running"; sessionId: string; running: boolean }
  | { type: "sessions" };

type Listener = (message: SyncMessage) => void;

export class TabChannel {
  readonly #channel: BroadcastChannel | undefined;
  readonly #listeners = new Set<Listener>();

  constructor(name = "pi-playground") {
    this.#channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(name) : undefined;
    if (this.#channel)
      this.#channel.onmessage = (event: MessageEvent<SyncMessage>) => this.#deliver(event.data);
  }

  post(message: SyncMessage): void {
    this.#channel?.postMessage(message);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#channel?.close();
    this.#listeners.clear();
  }

  #deliver(message: SyncMessage): void {
    for (const listener of this.#listeners) listener(message);
  }
}

export type LockOutcome<T> = { acquired: true; value: T } | { acquired: false };

/** Exclusive per-session locks; without Web Locks (old browsers) every request succeeds. */
export class SessionLocks {
  readonly #locks: LockManager | undefined;

  constructor(locks: LockManager | undefined = globalThis.navigator?.locks) {
    this.#locks = locks;
  }

  static nameFor(sessionId: string): string {
    return `pi-playground:session:${sessionId}`;
  }

  /** Run `work` while holding the session's lock, or report at once that another tab holds it. */
  async tryExclusive<T>(sessionId: string, work: () => Promise<T>): Promise<LockOutcome<T>> {
    if (!this.#locks) return { acquired: true, value: await work() };
    let outcome: LockOutcome<T> = { acquired: false };
    await this.#locks.request(SessionLocks.nameFor(sessionId), { ifAvailable: true }, async (lock) => {
      if (!lock) return;
      outcome = { acquired: true, value: await work() };
    });
    return outcome;
  }

  /**
   * Resolves true once no tab holds the session's lock, or false when `signal` aborts first. It polls
   * rather than queueing for the lock, which would compete with the tab that wants to run next.
   */
  async whenFree(sessionId: string, signal: AbortSignal, intervalMs = 500): Promise<boolean> {
    while (!signal.aborted) {
      if (!(await this.isHeld(sessionId))) return true;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    return false;
  }

  /** Whether some tab (this one included) holds the session's lock right now. */
  async isHeld(sessionId: string): Promise<boolean> {
    if (!this.#locks) return false;
    const state = await this.#locks.query();
    return (state.held ?? []).some((lock) => lock.name === SessionLocks.nameFor(sessionId));
  }
}
