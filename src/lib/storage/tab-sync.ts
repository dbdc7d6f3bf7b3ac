import type { SessionMeta } from "./records.ts";

/**
 * Coordination between tabs that have the same sessions open: a BroadcastChannel tells the others what
 * was written (with the session's new metadata, so nobody reads the list again to learn it), and Web Locks
 * make sure only one tab at a time runs or writes a given session.
 */
export type SyncMessage =
  | { type: "written"; sessionId: string; meta: SessionMeta }
  | { type: "meta"; sessionId: string; meta: SessionMeta }
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

  /** A lock on one session for this tab's work on it. */
  lockFor(sessionId: string): TabLock {
    return new TabLock(this, sessionId);
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
    return this.#isHeldName(SessionLocks.nameFor(sessionId));
  }

  /**
   * Hold a lock named after this tab for as long as the page lives, so other tabs can tell whether it is
   * still there (a tab that crashed or was closed releases it).
   */
  holdTab(tabId: string): void {
    void this.#locks?.request(`pi-playground:tab:${tabId}`, () => new Promise<void>(() => undefined));
  }

  /** Whether the tab with this id is still open. Without Web Locks nobody can tell: assume it is gone. */
  async isTabAlive(tabId: string): Promise<boolean> {
    return this.#isHeldName(`pi-playground:tab:${tabId}`);
  }

  async #isHeldName(name: string): Promise<boolean> {
    if (!this.#locks) return false;
    const state = await this.#locks.query();
    return (state.held ?? []).some((lock) => lock.name === name);
  }
}

/**
 * A session's lock as this tab uses it: re-entrant, so work of this tab that starts while the tab
 * already holds the lock (a run, a retried write, holding on to unsaved facts) joins it instead of being
 * refused, and the Web Lock is released only when the last of them is done. Work that starts while the
 * lock is being taken or given back waits for that to finish, so this tab never refuses itself.
 */
export class TabLock {
  readonly #locks: SessionLocks;
  readonly #sessionId: string;
  #state: "idle" | "acquiring" | "holding" | "releasing" = "idle";
  #acquired: Promise<boolean> = Promise.resolve(false);
  #released: Promise<void> = Promise.resolve();
  #users = 0;
  #idle: (() => void) | undefined;

  constructor(locks: SessionLocks, sessionId: string) {
    this.#locks = locks;
    this.#sessionId = sessionId;
  }

  /** This tab holds the session's lock right now. */
  get held(): boolean {
    return this.#state === "holding";
  }

  /**
   * Run `work` holding the lock. Resolves when `work` is done, even if other work of this tab that
   * joined meanwhile keeps the lock a while longer.
   */
  async run<T>(work: () => Promise<T>): Promise<LockOutcome<T>> {
    for (;;) {
      if (this.#state === "holding") return { acquired: true, value: await this.#join(work) };
      if (this.#state === "releasing") await this.#released;
      else if (this.#state === "acquiring") {
        if (!(await this.#acquired)) return { acquired: false };
      } else break;
    }
    return this.#acquire(work);
  }

  #acquire<T>(work: () => Promise<T>): Promise<LockOutcome<T>> {
    this.#state = "acquiring";
    let gotIt: (ok: boolean) => void = () => undefined;
    let released: () => void = () => undefined;
    this.#acquired = new Promise((resolve) => (gotIt = resolve));
    this.#released = new Promise((resolve) => (released = resolve));
    return new Promise<LockOutcome<T>>((resolve, reject) => {
      let started = false;
      this.#locks
        .tryExclusive(this.#sessionId, async () => {
          started = true;
          this.#state = "holding";
          gotIt(true);
          try {
            resolve({ acquired: true, value: await this.#join(work) });
          } catch (error) {
            reject(error);
          }
          while (this.#users > 0) await new Promise<void>((done) => (this.#idle = done));
          this.#state = "releasing";
        })
        .catch(reject)
        .finally(() => {
          this.#state = "idle";
          released();
          if (!started) {
            gotIt(false);
            resolve({ acquired: false });
          }
        });
    });
  }

  async #join<T>(work: () => Promise<T>): Promise<T> {
    this.#users++;
    try {
      return await work();
    } finally {
      this.#users--;
      if (this.#users === 0) this.#idle?.();
    }
  }
}
