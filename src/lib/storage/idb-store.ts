import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionEntry } from "../messages/entries.ts";
import { loadValidators } from "../messages/validators.ts";
import {
  callRecords,
  keptBytes,
  readCallBody,
  readCallRecord,
  type CallBodyRecord,
  type CallRecord,
  type NewCall,
  entryRecord,
  inflightRecord,
  readEntryRecord,
  readInflightRecord,
  readSessionMeta,
  SCHEMA_VERSION,
  type EntryRecord,
  type InflightRecord,
  type SessionMeta,
} from "./records.ts";
import {
  BY_REVISION,
  CALL_BODIES,
  CALLS,
  ENTRIES,
  INFLIGHT,
  openPlaygroundDb,
  SESSIONS,
  type OpenOptions,
  type PlaygroundDatabase,
} from "./schema.ts";
import {
  leafOnCreate,
  metaAfterCall,
  metaAfterPatch,
  metaAfterWrite,
  StorageError,
  toStorageError,
  type ChangesSince,
  type CreateOptions,
  type LatestCallsRequest,
  type LoadedSession,
  type MetaPatch,
  type SessionList,
  type SessionStore,
  type WriteResult,
} from "./session-store.ts";

/** How long one slice of a new session's records may take to hand to IndexedDB. */
const CREATE_SLICE_MS = 8;

function sessionRange(id: string, after = -1): IDBKeyRange {
  return IDBKeyRange.bound([id, after], [id, Number.MAX_SAFE_INTEGER], true, false);
}

/** Stored call summaries, read as hostile input: a damaged one is skipped, with why. */
function readCallRecords(raw: readonly unknown[]): { calls: CallRecord[]; warnings: string[] } {
  const calls: CallRecord[] = [];
  const warnings: string[] = [];
  for (const item of raw) {
    const read = readCallRecord(item);
    if (read.ok) calls.push(read.value);
    else warnings.push(`Skipped a recorded call: ${read.reason}.`);
  }
  return { calls, warnings };
}

function missing(id: string): StorageError {
  return new StorageError(
    "other",
    `Session ${id} is missing or unreadable, so the change was kept in memory only.`,
  );
}

/** Sessions in IndexedDB, through `idb`'s typed promises over the schema in schema.ts. */
export class IdbSessionStore implements SessionStore {
  readonly kind = "indexeddb" as const;
  readonly #db: PlaygroundDatabase;

  constructor(db: PlaygroundDatabase) {
    this.#db = db;
  }

  static async open(options?: OpenOptions): Promise<IdbSessionStore> {
    // Records are validated as they are read: the validators load while the database opens.
    const [db] = await Promise.all([openPlaygroundDb(options), loadValidators()]);
    return new IdbSessionStore(db);
  }

  close(): void {
    this.#db.close();
  }

  async listSessions(): Promise<SessionList> {
    const raw: unknown[] = await this.#db.getAll(SESSIONS);
    const sessions: SessionMeta[] = [];
    const warnings: string[] = [];
    for (const record of raw) {
      const meta = readSessionMeta(record);
      if (meta.ok) sessions.push(meta.value);
      else warnings.push(`Skipped a session record: ${meta.reason}.`);
    }
    sessions.sort((a, b) => b.updatedAt - a.updatedAt);
    return { sessions, warnings };
  }

  async getMeta(id: string): Promise<SessionMeta | undefined> {
    const raw: unknown = await this.#db.get(SESSIONS, id);
    if (raw === undefined) return undefined;
    const meta = readSessionMeta(raw);
    return meta.ok ? meta.value : undefined;
  }

  async createSession(
    meta: SessionMeta,
    entries: readonly SessionEntry[],
    {
      signal,
      onProgress,
      calls = [],
    }: CreateOptions & {
      /** Recorded calls stored with the session, in the same transaction (an import's, from its worker). */
      calls?: readonly NewCall[];
    } = {},
  ): Promise<WriteResult> {
    try {
      signal?.throwIfAborted();
      // The call stores are locked only when calls come with the session.
      const tx = this.#db.transaction(
        (calls.length > 0 ? [SESSIONS, ENTRIES, CALLS, CALL_BODIES] : [SESSIONS, ENTRIES]) as [
          typeof SESSIONS,
          typeof ENTRIES,
          typeof CALLS,
          typeof CALL_BODIES,
        ],
        "readwrite",
      );
      const done = tx.done;
      done.catch(() => undefined);
      const callRows = calls.map((call, seq) => callRecords(meta.id, seq, call));
      const now = Date.now();
      const stored: SessionMeta = callRows.reduce(
        (sessionMeta, { summary, body }) => metaAfterCall(sessionMeta, summary, keptBytes(body), now),
        {
          ...meta,
          schema: SCHEMA_VERSION,
          nextSeq: entries.length,
          messageCount: entries.length,
          revision: 1,
          leafId: leafOnCreate(meta.leafId, entries),
        },
      );
      const records = entries.map((entry, seq) => entryRecord(meta.id, seq, 1, entry));
      // add(), not put(): creating can never overwrite an existing session. Every request is awaited
      // with the transaction, so any failure (a full disk arrives as an abort) rejects here.
      const issued: Promise<unknown>[] = [];
      const issue = (request: Promise<unknown>) => {
        // Awaited together below; one that fails while a slice is awaited must not go unhandled meanwhile.
        request.catch(() => undefined);
        issued.push(request);
        return request;
      };
      // Given up at any moment before the transaction commits (a large put included): it is aborted.
      const abort = () => {
        try {
          tx.abort();
        } catch {
          // Already committed or aborted.
        }
      };
      signal?.addEventListener("abort", abort, { once: true });
      void done.finally(() => signal?.removeEventListener("abort", abort)).catch(() => undefined);
      try {
        void issue(tx.objectStore(SESSIONS).add(stored));
        const store = tx.objectStore(ENTRIES);
        // An entry, then each call (its summary and its body).
        const put = (index: number): Promise<unknown> => {
          if (index < records.length) return issue(store.put(records[index]!));
          const { summary, body } = callRows[index - records.length]!;
          void issue(tx.objectStore(CALLS).put(summary));
          return issue(tx.objectStore(CALL_BODIES).put(body));
        };
        const total = records.length + callRows.length;
        // Each put copies its record on this thread: a large session is handed over in slices of a few
        // milliseconds, each issued when the one before has been written, so the page keeps answering
        // between them while the one transaction stays open (nothing is stored unless all of it is).
        let next = 0;
        while (next < total) {
          const sliceStarted = performance.now();
          let last: Promise<unknown> | undefined;
          do last = put(next++);
          while (next < total && performance.now() - sliceStarted < CREATE_SLICE_MS);
          onProgress?.(next, total);
          if (next < total) {
            await last;
            signal?.throwIfAborted();
          }
        }
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // Already finished: nothing was committed by this transaction's failed request.
        }
        throw error;
      }
      await Promise.all([...issued, done]);
      return { meta: stored, records };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw toStorageError(error, "the new session");
    }
  }

  async loadSession(id: string): Promise<LoadedSession | undefined> {
    const tx = this.#db.transaction([SESSIONS, ENTRIES, INFLIGHT], "readonly");
    const [rawMeta, rawEntries, rawInflight] = (await Promise.all([
      tx.objectStore(SESSIONS).get(id),
      tx.objectStore(ENTRIES).getAll(sessionRange(id)),
      tx.objectStore(INFLIGHT).get(id),
    ])) as [unknown, unknown[], unknown];
    if (rawMeta === undefined) return undefined;
    const meta = readSessionMeta(rawMeta);
    if (!meta.ok) throw new StorageError("other", `Session ${id} cannot be opened: ${meta.reason}.`);
    const { records, warnings } = readRecords(rawEntries);
    let inflight: InflightRecord | undefined;
    if (rawInflight !== undefined) {
      const read = readInflightRecord(rawInflight);
      if (read.ok) inflight = read.value;
      else warnings.push(`Skipped the reply that was streaming when the page closed: ${read.reason}.`);
    }
    return { meta: meta.value, records, warnings, ...(inflight ? { inflight } : {}) };
  }

  async changesSince(id: string, revision: number): Promise<ChangesSince | undefined> {
    const tx = this.#db.transaction([SESSIONS, ENTRIES], "readonly");
    const rawMeta: unknown = await tx.objectStore(SESSIONS).get(id);
    if (rawMeta === undefined) return undefined;
    const meta = readSessionMeta(rawMeta);
    if (!meta.ok) return undefined;
    // Comparing one number first: nothing else is read when no tab wrote anything.
    if (meta.value.revision <= revision) return { meta: meta.value, records: [], warnings: [] };
    const raw: unknown[] = await tx
      .objectStore(ENTRIES)
      .index(BY_REVISION)
      .getAll(IDBKeyRange.bound([id, revision], [id, Number.MAX_SAFE_INTEGER], true, false));
    const { records, warnings } = readRecords(raw);
    records.sort((a, b) => a.seq - b.seq);
    return { meta: meta.value, records, warnings };
  }

  async write(
    id: string,
    change: {
      append?: readonly SessionEntry[];
      replace?: readonly { seq: number; entry: SessionEntry }[];
      leafId?: string | null;
    },
  ): Promise<WriteResult> {
    const appended = change.append ?? [];
    const replaced = change.replace ?? [];
    try {
      const tx = this.#db.transaction([SESSIONS, ENTRIES], "readwrite");
      const sessions = tx.objectStore(SESSIONS);
      const entries = tx.objectStore(ENTRIES);
      const done = tx.done;
      // Observed at once: an abort while the metadata is read must not surface as an unhandled rejection.
      done.catch(() => undefined);
      const read = readSessionMeta(await sessions.get(id));
      if (!read.ok) {
        tx.abort();
        throw missing(id);
      }
      const next = metaAfterWrite(read.value, appended, change.leafId, Date.now());
      const records = [
        ...replaced.map(({ seq, entry }) => entryRecord(id, seq, next.revision, entry)),
        ...appended.map((entry, index) => entryRecord(id, read.value.nextSeq + index, next.revision, entry)),
      ];
      await Promise.all([
        ...requests(tx, (issue) => {
          issue(sessions.put(next));
          for (const record of records) issue(entries.put(record));
        }),
        done,
      ]);
      return { meta: next, records };
    } catch (error) {
      const what =
        appended.length + replaced.length === 1
          ? "a message"
          : `${appended.length + replaced.length} messages`;
      throw toStorageError(error, what);
    }
  }

  async updateMeta(id: string, patch: MetaPatch): Promise<SessionMeta> {
    try {
      const tx = this.#db.transaction(SESSIONS, "readwrite");
      const read = readSessionMeta(await tx.store.get(id));
      if (!read.ok) {
        tx.abort();
        throw new StorageError("other", `Session ${id} is missing or unreadable.`);
      }
      const next = metaAfterPatch(read.value, patch, Date.now());
      await Promise.all([tx.store.put(next), tx.done]);
      return next;
    } catch (error) {
      throw toStorageError(error, "the session settings");
    }
  }

  async appendCall(id: string, call: NewCall): Promise<{ call: CallRecord; meta: SessionMeta }> {
    try {
      const tx = this.#db.transaction([SESSIONS, CALLS, CALL_BODIES], "readwrite");
      const done = tx.done;
      done.catch(() => undefined);
      const read = readSessionMeta(await tx.objectStore(SESSIONS).get(id));
      if (!read.ok) {
        tx.abort();
        throw missing(id);
      }
      const seq = read.value.nextCallSeq ?? 0;
      const { summary, body } = callRecords(id, seq, call);
      const meta = metaAfterCall(read.value, summary, keptBytes(body), Date.now());
      await Promise.all([
        ...requests(tx, (issue) => {
          issue(tx.objectStore(SESSIONS).put(meta));
          issue(tx.objectStore(CALLS).put(summary));
          issue(tx.objectStore(CALL_BODIES).put(body));
        }),
        done,
      ]);
      return { call: summary, meta };
    } catch (error) {
      throw toStorageError(error, "the record of a model call");
    }
  }

  async listCalls(
    id: string,
    latest?: LatestCallsRequest,
  ): Promise<{ calls: CallRecord[]; warnings: string[] }> {
    const range = sessionRange(id);
    if (!latest) return readCallRecords(await this.#db.getAll(CALLS, range));
    // IndexedDB reads each record of a getAll at a cost (about 50 µs on a slow machine): a session's
    // last calls, asked for first in the same transaction, arrive before all of them do.
    const tx = this.#db.transaction(CALLS);
    const total = tx.store.count(range);
    const newest = tx.store.getAll(sessionRange(id, latest.from - 1));
    const all = tx.store.getAll(range);
    all.catch(() => undefined);
    const [stored, first] = await Promise.all([total, newest]);
    if (first.length < stored) latest.onRead({ calls: readCallRecords(first).calls, total: stored });
    return readCallRecords(await all);
  }

  async readCallBody(id: string, seq: number): Promise<CallBodyRecord | undefined> {
    const raw: unknown = await this.#db.get(CALL_BODIES, [id, seq]);
    if (raw === undefined) return undefined;
    const read = readCallBody(raw);
    return read.ok ? read.value : undefined;
  }

  async deleteSession(id: string): Promise<void> {
    try {
      const tx = this.#db.transaction([SESSIONS, ENTRIES, CALLS, CALL_BODIES, INFLIGHT], "readwrite");
      await Promise.all([
        tx.objectStore(SESSIONS).delete(id),
        tx.objectStore(ENTRIES).delete(sessionRange(id)),
        tx.objectStore(CALLS).delete(sessionRange(id)),
        tx.objectStore(CALL_BODIES).delete(sessionRange(id)),
        tx.objectStore(INFLIGHT).delete(id),
        tx.done,
      ]);
    } catch (error) {
      throw toStorageError(error, "the deletion");
    }
  }

  async saveInflight(id: string, message: AgentMessage, tabId?: string): Promise<void> {
    try {
      await this.#db.put(INFLIGHT, inflightRecord(id, message, tabId));
    } catch (error) {
      throw toStorageError(error, "the streaming reply");
    }
  }

  async readInflight(id: string): Promise<InflightRecord | undefined> {
    const raw: unknown = await this.#db.get(INFLIGHT, id);
    if (raw === undefined) return undefined;
    const read = readInflightRecord(raw);
    return read.ok ? read.value : undefined;
  }

  async clearInflight(id: string): Promise<void> {
    try {
      await this.#db.delete(INFLIGHT, id);
    } catch (error) {
      throw toStorageError(error, "the end of a streaming reply");
    }
  }
}

/**
 * Issue a transaction's requests. A value the browser cannot clone throws synchronously; abort then, so
 * nothing of the transaction is written (it would otherwise commit the requests issued before).
 */
function requests(
  tx: { abort(): void },
  issueAll: (issue: (request: Promise<unknown>) => void) => void,
): Promise<unknown>[] {
  const issued: Promise<unknown>[] = [];
  try {
    issueAll((request) => issued.push(request));
    return issued;
  } catch (error) {
    // The requests issued before fail with the abort; that is expected, not an unhandled rejection.
    for (const request of issued) request.catch(() => undefined);
    try {
      tx.abort();
    } catch {
      // Already finished: nothing was committed by this transaction's failed request.
    }
    throw error;
  }
}

/** Read raw entry records, keeping the readable ones and naming each that had to be skipped. */
export function readRecords(raw: readonly unknown[]): { records: EntryRecord[]; warnings: string[] } {
  const records: EntryRecord[] = [];
  const warnings: string[] = [];
  for (const item of raw) {
    const read = readEntryRecord(item);
    if (read.ok) {
      records.push(read.value);
      continue;
    }
    const seq =
      typeof item === "object" && item !== null && "seq" in item
        ? String((item as { seq: unknown }).seq)
        : "?";
    warnings.push(`Skipped stored entry #${seq}: ${read.reason}.`);
  }
  return { records, warnings };
}
