import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { MessageRecord, SessionMeta } from "./records.ts";
import { toStorageError, type SessionStore, type StorageError } from "./session-store.ts";

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
  /**
   * Runs a write while no other tab writes this session (the session's lock, or nothing when this tab
   * already holds it). Resolves false when the write could not start; it is retried later.
   */
  exclusive: (write: () => Promise<void>) => Promise<boolean>;
  /** The session's metadata, for creating its record when that failed at first (a full disk, say). */
  meta: () => SessionMeta;
}

const RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000];

/**
 * Keeps one session's facts and its stored records in step. The facts are the truth. The writer knows
 * which leading facts are stored, under which sequence number, and which object it stored for each: a
 * fact replaced in memory since (an approval decided, even while its first write was still running) is
 * found by identity and written again. Every flush writes whatever is pending, in order, so a failed
 * write loses nothing: the facts stay in memory and the next flush, automatic or asked for, stores them.
 */
export class SessionWriter {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  readonly #hooks: WriterHooks;
  /** Sequence numbers of the stored prefix of the facts, ascending. */
  #seqs: number[];
  /** The object stored for each position of the prefix. */
  #stored: AgentMessage[];
  readonly #known: Set<number>;
  #created: boolean;
  #chain: Promise<void> = Promise.resolve();
  #scheduled = false;
  #error: StorageError | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #closed = false;
  #savedWaiters: (() => void)[] = [];

  constructor(
    store: SessionStore,
    sessionId: string,
    stored: { seqs: readonly number[]; created: boolean },
    hooks: WriterHooks,
  ) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#hooks = hooks;
    this.#seqs = stored.seqs.slice();
    this.#stored = hooks.facts().slice(0, stored.seqs.length);
    this.#known = new Set(stored.seqs);
    this.#created = stored.created;
  }

  /** Number of facts (from the start) that have a stored record. */
  get savedCount(): number {
    return this.#seqs.length;
  }

  /** Whether anything in memory is not stored yet. */
  get pending(): boolean {
    return this.#unsaved() > 0;
  }

  /** Resolves once everything in memory is stored (or the writer is closed). */
  whenSaved(): Promise<void> {
    if (this.#closed || !this.pending) return Promise.resolve();
    return new Promise((resolve) => this.#savedWaiters.push(resolve));
  }

  hasSeq(seq: number): boolean {
    return this.#known.has(seq);
  }

  /** Position of the fact stored under `seq`, or -1. */
  indexOfSeq(seq: number): number {
    return this.#seqs.indexOf(seq);
  }

  /** Facts changed or were added in memory: write them soon. */
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
   * Records another tab stored. They take their place in sequence order among the stored facts, so this
   * tab shows the session as storage holds it; facts of ours still waiting to be stored stay last.
   * Returns the new facts, or undefined when there was nothing new.
   */
  merge(records: readonly MessageRecord[]): AgentMessage[] | undefined {
    const fresh = records.filter((record) => !this.#known.has(record.seq));
    if (fresh.length === 0) return undefined;
    const facts = this.#hooks.facts();
    const prefix = this.#seqs.map((seq, index) => ({
      seq,
      fact: facts[index] as AgentMessage,
      stored: this.#stored[index] as AgentMessage,
    }));
    for (const record of fresh)
      prefix.push({ seq: record.seq, fact: record.message, stored: record.message });
    prefix.sort((a, b) => a.seq - b.seq);
    this.#seqs = prefix.map((entry) => entry.seq);
    this.#stored = prefix.map((entry) => entry.stored);
    for (const record of fresh) this.#known.add(record.seq);
    const merged = [...prefix.map((entry) => entry.fact), ...facts.slice(this.#seqs.length - fresh.length)];
    queueMicrotask(() => this.#report());
    return merged;
  }

  /** A record another tab replaced: take its version as the stored one. */
  replaceStored(index: number, message: AgentMessage): void {
    if (index >= 0 && index < this.#stored.length) this.#stored[index] = message;
  }

  /** Write everything pending. Serialized: concurrent calls run one after another. */
  flush(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#flushNow());
    return this.#chain;
  }

  /** Stop writing (the session was deleted, or closed with nothing pending). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#releaseWaiters();
  }

  async #flushNow(): Promise<void> {
    if (this.#closed || this.#unsaved() === 0) return;
    try {
      const started = await this.#hooks.exclusive(() => this.#write());
      if (!started) this.#scheduleRetry();
    } catch (error) {
      this.#error = toStorageError(error, "a message");
      this.#scheduleRetry();
    }
    const unsaved = this.#report();
    // Facts may have arrived or changed while writing; they are pending now.
    if (this.#error === undefined && unsaved > 0) this.schedule();
  }

  async #write(): Promise<void> {
    const facts = this.#hooks.facts();
    if (!this.#created) {
      const seqs = await this.#store.createSession(this.#hooks.meta(), facts);
      this.#created = true;
      this.#adopt(seqs, facts.slice());
      this.#succeeded({ appended: seqs, replaced: [] });
      return;
    }
    // Work on a snapshot: records merged from another tab meanwhile shift positions, not sequence numbers.
    const seqs = this.#seqs.slice();
    const stored = this.#stored.slice();
    const replaced: number[] = [];
    for (let index = 0; index < seqs.length; index++) {
      const fact = facts[index] as AgentMessage;
      if (fact === stored[index]) continue;
      const seq = seqs[index] as number;
      await this.#store.putMessage(this.#sessionId, seq, fact);
      const live = this.#seqs.indexOf(seq);
      if (live !== -1) this.#stored[live] = fact;
      replaced.push(seq);
    }
    const appended = facts.slice(seqs.length);
    let added: number[] = [];
    if (appended.length > 0) {
      added = await this.#store.appendMessages(this.#sessionId, appended);
      this.#adopt(added, appended);
    }
    this.#succeeded({ appended: added, replaced });
  }

  #adopt(seqs: readonly number[], messages: readonly AgentMessage[]): void {
    this.#seqs.push(...seqs);
    this.#stored.push(...messages);
    for (const seq of seqs) this.#known.add(seq);
  }

  #succeeded(change: { appended: number[]; replaced: number[] }): void {
    this.#error = undefined;
    this.#failures = 0;
    clearTimeout(this.#retryTimer);
    this.#hooks.onWritten(change);
  }

  #scheduleRetry(): void {
    clearTimeout(this.#retryTimer);
    const delay = RETRY_DELAYS_MS[Math.min(this.#failures, RETRY_DELAYS_MS.length - 1)] as number;
    this.#failures++;
    this.#retryTimer = setTimeout(() => void this.flush(), delay);
  }

  #unsaved(): number {
    const facts = this.#hooks.facts();
    if (!this.#created) return facts.length;
    let changed = 0;
    for (let index = 0; index < this.#seqs.length; index++)
      if (facts[index] !== this.#stored[index]) changed++;
    return Math.max(0, facts.length - this.#seqs.length) + changed;
  }

  /** Tell the hooks how much is unsaved, and return it so callers need not count again. */
  #report(): number {
    const unsaved = this.#unsaved();
    this.#hooks.onStatus({ unsaved, error: this.#error });
    if (unsaved === 0) this.#releaseWaiters();
    return unsaved;
  }

  #releaseWaiters(): void {
    const waiters = this.#savedWaiters;
    this.#savedWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
