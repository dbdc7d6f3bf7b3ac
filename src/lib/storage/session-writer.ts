import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { StorageError, type SessionStore } from "./session-store.ts";
import { toStorageError } from "./idb-store.ts";

export interface WriterStatus {
  /** Facts in memory that are not stored yet (appended or changed). */
  unsaved: number;
  /** The last failure, cleared by the next successful write. */
  error: StorageError | undefined;
}

export interface WriterHooks {
  facts: () => readonly AgentMessage[];
  onStatus: (status: WriterStatus) => void;
  /** Called after records were written, so other tabs can be told. */
  onWritten: (change: { appended: number[]; replaced: number[] }) => void;
}

const RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000];

/**
 * Keeps one session's facts and its stored records in step. The facts are the truth; the writer tracks
 * how many of them are stored (a prefix, each with its sequence number) and which stored ones changed
 * since. Every flush writes whatever is pending in one go, in order, so a failed write (a full disk)
 * loses nothing: the facts stay in memory and the next flush, automatic or asked for, stores them.
 */
export class SessionWriter {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  readonly #hooks: WriterHooks;
  #seqs: number[];
  readonly #known: Set<number>;
  #dirty = new Set<number>();
  #chain: Promise<void> = Promise.resolve();
  #scheduled = false;
  #error: StorageError | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #closed = false;

  constructor(store: SessionStore, sessionId: string, seqs: readonly number[], hooks: WriterHooks) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#seqs = seqs.slice();
    this.#known = new Set(seqs);
    this.#hooks = hooks;
  }

  /** Number of facts (from the start) that have a stored record. */
  get savedCount(): number {
    return this.#seqs.length;
  }

  get maxSeq(): number {
    return this.#seqs.reduce((max, seq) => Math.max(max, seq), -1);
  }

  seqAt(index: number): number | undefined {
    return this.#seqs[index];
  }

  hasSeq(seq: number): boolean {
    return this.#known.has(seq);
  }

  /** Position of the fact stored under `seq`, or -1. */
  indexOfSeq(seq: number): number {
    return this.#known.has(seq) ? this.#seqs.indexOf(seq) : -1;
  }

  /** The fact at `index` was replaced in memory; store the new version. */
  markChanged(index: number): void {
    if (index < this.#seqs.length) this.#dirty.add(index);
    this.schedule();
  }

  /** New facts were appended in memory (they are found by position on the next flush). */
  schedule(): void {
    this.#report();
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      void this.flush();
    });
  }

  /**
   * Records written by another tab were inserted in memory right after the stored prefix (before any
   * facts of ours still waiting to be stored), so the positions of the stored prefix stay aligned.
   */
  adoptStored(seqs: readonly number[]): void {
    this.#seqs.push(...seqs);
    for (const seq of seqs) this.#known.add(seq);
  }

  /** Write everything pending. Serialized: concurrent calls run one after another. */
  flush(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#flushNow());
    return this.#chain;
  }

  /** Stop scheduling writes (the session was closed or deleted). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
  }

  async #flushNow(): Promise<void> {
    if (this.#closed) return;
    const facts = this.#hooks.facts();
    const appended = facts.slice(this.#seqs.length);
    const dirty = [...this.#dirty].filter((index) => index < this.#seqs.length);
    if (appended.length === 0 && dirty.length === 0) return;
    try {
      const replaced: number[] = [];
      for (const index of dirty) {
        const seq = this.#seqs[index] as number;
        await this.#store.putMessage(this.#sessionId, seq, facts[index] as AgentMessage);
        this.#dirty.delete(index);
        replaced.push(seq);
      }
      let seqs: number[] = [];
      if (appended.length > 0) {
        seqs = await this.#store.appendMessages(this.#sessionId, appended);
        this.adoptStored(seqs);
      }
      this.#error = undefined;
      this.#failures = 0;
      this.#hooks.onWritten({ appended: seqs, replaced });
    } catch (error) {
      this.#error = error instanceof StorageError ? error : toStorageError(error, "a message");
      this.#scheduleRetry();
    }
    this.#report();
    // Facts may have arrived while writing; they are pending now.
    if (this.#error === undefined && this.#hooks.facts().length > this.#seqs.length) this.schedule();
  }

  #scheduleRetry(): void {
    clearTimeout(this.#retryTimer);
    const delay = RETRY_DELAYS_MS[Math.min(this.#failures, RETRY_DELAYS_MS.length - 1)] as number;
    this.#failures++;
    this.#retryTimer = setTimeout(() => void this.flush(), delay);
  }

  #report(): void {
    const unsaved = this.#hooks.facts().length - this.#seqs.length + this.#dirty.size;
    this.#hooks.onStatus({ unsaved: Math.max(0, unsaved), error: this.#error });
  }
}
