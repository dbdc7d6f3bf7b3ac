import type { SessionEntry } from "../messages/entries.ts";
import type { EntryRecord, SessionMeta } from "./records.ts";
import { toStorageError, type SessionStore, type StorageError, type WriteResult } from "./session-store.ts";

export interface WriterStatus {
  /** Entries in memory that are not stored yet (appended, changed, or a leaf not yet moved). */
  unsaved: number;
  /** The last failure, cleared by the next successful write. */
  error: StorageError | undefined;
}

export interface WriterHooks {
  onStatus: (status: WriterStatus) => void;
  /** Called after a write was stored, with what it stored and the session's new metadata. */
  onWritten: (result: WriteResult) => void;
  /**
   * Runs a write while no other tab writes this session (the session's lock, or nothing when this tab
   * already holds it). Resolves false when the write could not start; it is retried later.
   */
  exclusive: (write: () => Promise<void>) => Promise<boolean>;
  /** The session's metadata, for creating its record when that failed at first (a full disk, say). */
  meta: () => SessionMeta;
  /** The entry the session continues from, stored with every write. */
  leaf: () => string | null;
}

const RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000];

/**
 * Stores one session's entries as they are made, in order. It is told what changed (appended entries,
 * replaced entries, a moved leaf) and keeps that as pending until a write stores it, so a failed write
 * loses nothing: the entries stay in memory and the next flush, automatic or asked for, stores them.
 * Nothing here scans the session: the cost of a write follows the size of the change.
 */
export class SessionWriter {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  readonly #hooks: WriterHooks;
  /** Sequence numbers of the records the session was opened with, by entry id: made when first asked. */
  #openedSeqs: Map<string, number> | undefined;
  /** The records the session was opened with, until #openedSeqs is made from them. */
  #opened: readonly EntryRecord[];
  /**
   * Sequence numbers learned since the session opened (this tab's writes, another tab's records), kept
   * apart so that storing a new message never indexes the whole session: at 100,000 entries that index
   * would fall in the first write of a send, before its reply.
   */
  readonly #laterSeqs = new Map<string, number>();
  #appends: SessionEntry[] = [];
  readonly #replaces = new Map<string, SessionEntry>();
  #storedLeaf: string | null;
  #revision: number;
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
    stored: { records: readonly EntryRecord[]; meta: SessionMeta | undefined },
    hooks: WriterHooks,
  ) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#hooks = hooks;
    this.#opened = stored.records;
    this.#created = stored.meta !== undefined;
    this.#revision = stored.meta?.revision ?? 0;
    this.#storedLeaf = stored.meta?.leafId ?? null;
  }

  /** The session revision this tab has stored or read; anything newer was written by another tab. */
  get revision(): number {
    return this.#revision;
  }

  get created(): boolean {
    return this.#created;
  }

  /** Whether anything in memory is not stored yet. */
  get pending(): boolean {
    return this.#unsaved() > 0;
  }

  /**
   * A stored entry's sequence number. The opened records are indexed when one is first looked up (a
   * replaced entry, a question from the transcript) rather than as the session opens: at 100,000 entries
   * the index costs tens of milliseconds that opening a session would otherwise spend in one task.
   */
  #seqOf(entryId: string): number | undefined {
    const later = this.#laterSeqs.get(entryId);
    if (later !== undefined) return later;
    if (!this.#openedSeqs) {
      this.#openedSeqs = new Map();
      for (const record of this.#opened) this.#openedSeqs.set(record.entry.id, record.seq);
      this.#opened = [];
    }
    return this.#openedSeqs.get(entryId);
  }

  /** Resolves once everything in memory is stored (or the writer is closed). */
  whenSaved(): Promise<void> {
    if (this.#closed || !this.pending) return Promise.resolve();
    return new Promise((resolve) => this.#savedWaiters.push(resolve));
  }

  isStored(entryId: string): boolean {
    return this.#seqOf(entryId) !== undefined;
  }

  /** New entries, in order of creation: store them soon. */
  append(entries: readonly SessionEntry[]): void {
    this.#appends.push(...entries);
    this.schedule();
  }

  /** A new version of an entry (an approval decided): store it soon, in place of the old one. */
  replace(entry: SessionEntry): void {
    const pendingAt = this.#appends.findIndex((candidate) => candidate.id === entry.id);
    if (pendingAt !== -1) this.#appends[pendingAt] = entry;
    else this.#replaces.set(entry.id, entry);
    this.schedule();
  }

  /** The leaf moved without new entries (another branch was chosen): store that soon. */
  leafMoved(): void {
    this.schedule();
  }

  /** Records another tab stored, and the revision they brought the session to: known, never written again. */
  adoptRemote(records: readonly EntryRecord[], meta: SessionMeta): void {
    for (const record of records) this.#laterSeqs.set(record.entry.id, record.seq);
    this.#revision = Math.max(this.#revision, meta.revision);
    this.#storedLeaf = meta.leafId;
    this.#created = true;
    queueMicrotask(() => this.#report());
  }

  /** Something changed in memory: write it soon. */
  schedule(): void {
    this.#report();
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      void this.flush();
    });
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
      // A value the browser cannot copy will never store: say so once instead of retrying forever.
      if (this.#error.kind !== "unstorable") this.#scheduleRetry();
    }
    const unsaved = this.#report();
    // Entries may have arrived or changed while writing; they are pending now.
    if (this.#error === undefined && unsaved > 0) this.schedule();
  }

  async #write(): Promise<void> {
    // What this write stores; anything that arrives meanwhile stays pending for the next one.
    const appends = this.#appends.slice();
    const replaces = [...this.#replaces.values()];
    const leaf = this.#hooks.leaf();
    let result: WriteResult;
    if (!this.#created) {
      result = await this.#store.createSession({ ...this.#hooks.meta(), leafId: leaf }, appends);
      this.#created = true;
    } else {
      result = await this.#store.write(this.#sessionId, {
        append: appends,
        replace: replaces.flatMap((entry) => {
          const seq = this.#seqOf(entry.id);
          return seq === undefined ? [] : [{ seq, entry }];
        }),
        leafId: leaf,
      });
    }
    for (const record of result.records) this.#laterSeqs.set(record.entry.id, record.seq);
    this.#appends = this.#appends.slice(appends.length);
    for (const entry of replaces) if (this.#replaces.get(entry.id) === entry) this.#replaces.delete(entry.id);
    this.#revision = result.meta.revision;
    this.#storedLeaf = result.meta.leafId;
    this.#error = undefined;
    this.#failures = 0;
    clearTimeout(this.#retryTimer);
    this.#hooks.onWritten(result);
  }

  #scheduleRetry(): void {
    clearTimeout(this.#retryTimer);
    const delay = RETRY_DELAYS_MS[Math.min(this.#failures, RETRY_DELAYS_MS.length - 1)] as number;
    this.#failures++;
    this.#retryTimer = setTimeout(() => void this.flush(), delay);
  }

  #unsaved(): number {
    const changes = this.#appends.length + this.#replaces.size;
    // Not yet created: the session record itself is pending, entries or not.
    if (!this.#created) return Math.max(1, changes);
    const leafPending = this.#appends.length === 0 && this.#hooks.leaf() !== this.#storedLeaf ? 1 : 0;
    return changes + leafPending;
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
