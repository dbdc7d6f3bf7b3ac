import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  inflightRecord,
  messageRecord,
  readInflightRecord,
  readMessageRecord,
  readSessionMeta,
  SCHEMA_VERSION,
  type InflightRecord,
  type MessageRecord,
  type SessionMeta,
} from "./records.ts";
import {
  metaAfterAppend,
  StorageError,
  type LoadedSession,
  type MessagesSince,
  type MetaPatch,
  type SessionList,
  type SessionStore,
  toStorageError,
} from "./session-store.ts";

export const DB_NAME = "pi-playground";
/** IndexedDB's own version: bumped when stores or indexes change; record schemas are versioned separately. */
const DB_VERSION = 1;

const SESSIONS = "sessions";
const MESSAGES = "messages";
const INFLIGHT = "inflight";

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Settles when the transaction commits; observed at once so an abort is never an unhandled rejection. */
function done(tx: IDBTransaction): Promise<void> {
  const completion = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException("Transaction aborted", "AbortError"));
    tx.onerror = () => reject(tx.error);
  });
  completion.catch(() => undefined);
  return completion;
}

function openDatabase(factory: IDBFactory = indexedDB): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let req: IDBOpenDBRequest;
    try {
      req = factory.open(DB_NAME, DB_VERSION);
    } catch (error) {
      reject(toStorageError(error, "the session"));
      return;
    }
    req.onupgradeneeded = () => {
      const db = req.result;
      // Version 1: the initial layout. Later versions add steps here, keyed on event.oldVersion.
      if (!db.objectStoreNames.contains(SESSIONS)) db.createObjectStore(SESSIONS, { keyPath: "id" });
      if (!db.objectStoreNames.contains(MESSAGES))
        db.createObjectStore(MESSAGES, { keyPath: ["sessionId", "seq"] });
      if (!db.objectStoreNames.contains(INFLIGHT)) db.createObjectStore(INFLIGHT, { keyPath: "sessionId" });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () =>
      reject(
        new StorageError(
          "unavailable",
          `IndexedDB could not be opened: ${req.error?.message ?? "unknown error"}`,
        ),
      );
    req.onblocked = () =>
      reject(
        new StorageError(
          "unavailable",
          "IndexedDB is blocked by another tab running an older version; close it and reload.",
        ),
      );
  });
}

function sessionRange(id: string, afterSeq = -1): IDBKeyRange {
  return IDBKeyRange.bound([id, afterSeq], [id, Number.MAX_SAFE_INTEGER], true, false);
}

export class IdbSessionStore implements SessionStore {
  readonly kind = "indexeddb" as const;
  readonly #db: IDBDatabase;

  constructor(db: IDBDatabase) {
    this.#db = db;
  }

  static async open(factory?: IDBFactory): Promise<IdbSessionStore> {
    return new IdbSessionStore(await openDatabase(factory));
  }

  close(): void {
    this.#db.close();
  }

  async listSessions(): Promise<SessionList> {
    const tx = this.#db.transaction(SESSIONS, "readonly");
    const raw = await request(tx.objectStore(SESSIONS).getAll());
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
    const raw = await request(this.#db.transaction(SESSIONS, "readonly").objectStore(SESSIONS).get(id));
    if (raw === undefined) return undefined;
    const meta = readSessionMeta(raw);
    return meta.ok ? meta.value : undefined;
  }

  async createSession(meta: SessionMeta, facts: readonly AgentMessage[]): Promise<number[]> {
    try {
      const tx = this.#db.transaction([SESSIONS, MESSAGES], "readwrite");
      const completion = done(tx);
      const sessions = tx.objectStore(SESSIONS);
      const messages = tx.objectStore(MESSAGES);
      const seqs = facts.map((_, index) => index);
      try {
        // add(), not put(): creating can never overwrite an existing session.
        sessions.add({ ...meta, schema: SCHEMA_VERSION, nextSeq: facts.length, messageCount: facts.length });
        facts.forEach((message, index) => {
          const record = messageRecord(meta.id, index, message);
          messages.put(record);
        });
      } catch (error) {
        tx.abort();
        throw error;
      }
      await completion;
      return seqs;
    } catch (error) {
      throw toStorageError(error, "the new session");
    }
  }

  async loadSession(id: string): Promise<LoadedSession | undefined> {
    const tx = this.#db.transaction([SESSIONS, MESSAGES, INFLIGHT], "readonly");
    const [rawMeta, rawMessages, rawInflight] = await Promise.all([
      request(tx.objectStore(SESSIONS).get(id)),
      request(tx.objectStore(MESSAGES).getAll(sessionRange(id))),
      request(tx.objectStore(INFLIGHT).get(id)),
    ]);
    if (rawMeta === undefined) return undefined;
    const meta = readSessionMeta(rawMeta);
    if (!meta.ok) throw new StorageError("other", `Session ${id} cannot be opened: ${meta.reason}.`);
    const { records, warnings } = readRecords(rawMessages);
    let inflight: InflightRecord | undefined;
    if (rawInflight !== undefined) {
      const read = readInflightRecord(rawInflight);
      if (read.ok) inflight = read.value;
      else warnings.push(`Skipped the reply that was streaming when the page closed: ${read.reason}.`);
    }
    return {
      meta: meta.value,
      facts: records.map((record) => record.message),
      seqs: records.map((record) => record.seq),
      warnings,
      ...(inflight ? { inflight } : {}),
    };
  }

  async loadMessagesSince(id: string, afterSeq: number): Promise<MessagesSince> {
    const raw = await request(
      this.#db.transaction(MESSAGES, "readonly").objectStore(MESSAGES).getAll(sessionRange(id, afterSeq)),
    );
    return readRecords(raw);
  }

  async listSeqs(id: string): Promise<number[]> {
    const keys = await request(
      this.#db.transaction(MESSAGES, "readonly").objectStore(MESSAGES).getAllKeys(sessionRange(id)),
    );
    return keys.map((key) => (key as [string, number])[1]);
  }

  async readMessage(id: string, seq: number): Promise<MessageRecord | undefined> {
    const raw = await request(
      this.#db.transaction(MESSAGES, "readonly").objectStore(MESSAGES).get([id, seq]),
    );
    const read = readMessageRecord(raw);
    return read.ok ? read.value : undefined;
  }

  async appendMessages(id: string, messages: readonly AgentMessage[]): Promise<number[]> {
    try {
      const tx = this.#db.transaction([SESSIONS, MESSAGES], "readwrite");
      const completion = done(tx);
      const sessions = tx.objectStore(SESSIONS);
      const store = tx.objectStore(MESSAGES);
      const seqs = await new Promise<number[]>((resolve, reject) => {
        const get = sessions.get(id);
        get.onerror = () => reject(get.error);
        get.onsuccess = () => {
          const meta = readSessionMeta(get.result);
          if (!meta.ok) {
            tx.abort();
            reject(
              new StorageError(
                "other",
                `Session ${id} is missing or unreadable, so the message was kept in memory only.`,
              ),
            );
            return;
          }
          // put() throws synchronously for data it cannot store (DataCloneError, or a full disk in
          // some engines); abort so that nothing of this append is half-written.
          try {
            const first = meta.value.nextSeq;
            const allocated = messages.map((message, index) => {
              store.put(messageRecord(id, first + index, message));
              return first + index;
            });
            sessions.put(metaAfterAppend(meta.value, messages, Date.now()));
            resolve(allocated);
          } catch (error) {
            tx.abort();
            reject(error);
          }
        };
      });
      await completion;
      return seqs;
    } catch (error) {
      throw toStorageError(error, messages.length === 1 ? "a message" : `${messages.length} messages`);
    }
  }

  async putMessage(id: string, seq: number, message: AgentMessage): Promise<void> {
    try {
      const tx = this.#db.transaction([SESSIONS, MESSAGES], "readwrite");
      const completion = done(tx);
      const record = messageRecord(id, seq, message);
      try {
        tx.objectStore(MESSAGES).put(record);
      } catch (error) {
        tx.abort();
        throw error;
      }
      const sessions = tx.objectStore(SESSIONS);
      const get = sessions.get(id);
      get.onsuccess = () => {
        const meta = readSessionMeta(get.result);
        try {
          if (meta.ok) sessions.put({ ...meta.value, updatedAt: Date.now() });
        } catch {
          // Only the change time is lost; the message itself is written by this transaction.
        }
      };
      await completion;
    } catch (error) {
      throw toStorageError(error, "a changed message");
    }
  }

  async updateMeta(id: string, patch: MetaPatch): Promise<SessionMeta> {
    try {
      const tx = this.#db.transaction(SESSIONS, "readwrite");
      const completion = done(tx);
      const sessions = tx.objectStore(SESSIONS);
      const updated = await new Promise<SessionMeta>((resolve, reject) => {
        const get = sessions.get(id);
        get.onerror = () => reject(get.error);
        get.onsuccess = () => {
          const meta = readSessionMeta(get.result);
          if (!meta.ok) {
            tx.abort();
            reject(new StorageError("other", `Session ${id} is missing or unreadable.`));
            return;
          }
          const next: SessionMeta = { ...meta.value, ...patch, updatedAt: Date.now() };
          try {
            sessions.put(next);
            resolve(next);
          } catch (error) {
            tx.abort();
            reject(error);
          }
        };
      });
      await completion;
      return updated;
    } catch (error) {
      throw toStorageError(error, "the session settings");
    }
  }

  async deleteSession(id: string): Promise<void> {
    try {
      const tx = this.#db.transaction([SESSIONS, MESSAGES, INFLIGHT], "readwrite");
      tx.objectStore(SESSIONS).delete(id);
      tx.objectStore(MESSAGES).delete(sessionRange(id));
      tx.objectStore(INFLIGHT).delete(id);
      await done(tx);
    } catch (error) {
      throw toStorageError(error, "the deletion");
    }
  }

  async saveInflight(id: string, message: AgentMessage, tabId?: string): Promise<void> {
    try {
      const tx = this.#db.transaction(INFLIGHT, "readwrite");
      tx.objectStore(INFLIGHT).put(inflightRecord(id, message, tabId));
      await done(tx);
    } catch (error) {
      throw toStorageError(error, "the streaming reply");
    }
  }

  async readInflight(id: string): Promise<InflightRecord | undefined> {
    const raw = await request(this.#db.transaction(INFLIGHT, "readonly").objectStore(INFLIGHT).get(id));
    if (raw === undefined) return undefined;
    const read = readInflightRecord(raw);
    return read.ok ? read.value : undefined;
  }

  async clearInflight(id: string): Promise<void> {
    try {
      const tx = this.#db.transaction(INFLIGHT, "readwrite");
      tx.objectStore(INFLIGHT).delete(id);
      await done(tx);
    } catch (error) {
      throw toStorageError(error, "the end of a streaming reply");
    }
  }
}

function readRecords(raw: readonly unknown[]): MessagesSince {
  const records: MessageRecord[] = [];
  const warnings: string[] = [];
  for (const item of raw) {
    const read = readMessageRecord(item);
    if (read.ok) {
      records.push(read.value);
      continue;
    }
    const seq =
      typeof item === "object" && item !== null && "seq" in item
        ? String((item as { seq: unknown }).seq)
        : "?";
    warnings.push(`Skipped stored message #${seq}: ${read.reason}.`);
  }
  return { records, warnings };
}
