import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionEntry } from "../messages/entries.ts";
import {
  callRecords,
  keptBytes,
  type CallBodyRecord,
  type CallRecord,
  type NewCall,
  entryRecord,
  inflightRecord,
  SCHEMA_VERSION,
  type EntryRecord,
  type InflightRecord,
  type SessionMeta,
} from "./records.ts";
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

export interface MemoryStoreOptions {
  /**
   * Called at the end of each write, before anything of it is kept; throwing fails the whole write, as a
   * browser aborts a transaction when the disk is full. Tests use it; the app never does.
   */
  beforeCommit?: () => void;
}

/**
 * The store used when IndexedDB is unavailable (some private windows, disabled storage): the playground
 * keeps working, and the UI says plainly that nothing survives a reload. It behaves as IndexedDB does
 * where the rest of the app can tell: values are copied in and out (so two "tabs" sharing it never share
 * objects), a write either happens entirely or not at all, and failures arrive asynchronously.
 */
export class MemorySessionStore implements SessionStore {
  readonly kind = "memory" as const;
  readonly #sessions = new Map<string, SessionMeta>();
  readonly #entries = new Map<string, Map<number, EntryRecord>>();
  readonly #inflight = new Map<string, InflightRecord>();
  readonly #calls = new Map<string, { summary: CallRecord; body: CallBodyRecord }[]>();
  readonly #options: MemoryStoreOptions;

  constructor(options: MemoryStoreOptions = {}) {
    this.#options = options;
  }

  close(): void {
    // Nothing to release.
  }

  async listSessions(): Promise<SessionList> {
    const sessions = [...this.#sessions.values()].map(copy).sort((a, b) => b.updatedAt - a.updatedAt);
    return { sessions, warnings: [] };
  }

  async getMeta(id: string): Promise<SessionMeta | undefined> {
    const meta = this.#sessions.get(id);
    return meta && copy(meta);
  }

  async createSession(
    meta: SessionMeta,
    entries: readonly SessionEntry[],
    options?: CreateOptions,
  ): Promise<WriteResult> {
    options?.signal?.throwIfAborted();
    return this.#transaction("the new session", () => {
      if (this.#sessions.has(meta.id))
        throw new StorageError("other", `A session with id ${meta.id} already exists.`);
      const stored: SessionMeta = copy({
        ...meta,
        schema: SCHEMA_VERSION,
        nextSeq: entries.length,
        messageCount: entries.length,
        revision: 1,
        leafId: leafOnCreate(meta.leafId, entries),
      });
      const records = entries.map((entry, seq) => copy(entryRecord(meta.id, seq, 1, entry)));
      return {
        result: { meta: copy(stored), records: records.map(copy) },
        commit: () => {
          this.#sessions.set(meta.id, stored);
          this.#entries.set(meta.id, new Map(records.map((record) => [record.seq, record])));
        },
      };
    });
  }

  async loadSession(id: string): Promise<LoadedSession | undefined> {
    const meta = this.#sessions.get(id);
    if (!meta) return undefined;
    const inflight = this.#inflight.get(id);
    return {
      meta: copy(meta),
      records: this.#sorted(id).map(copy),
      warnings: [],
      ...(inflight ? { inflight: copy(inflight) } : {}),
    };
  }

  async changesSince(id: string, revision: number): Promise<ChangesSince | undefined> {
    const meta = this.#sessions.get(id);
    if (!meta) return undefined;
    const records =
      meta.revision > revision ? this.#sorted(id).filter((record) => record.rev > revision) : [];
    return { meta: copy(meta), records: records.map(copy), warnings: [] };
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
    const count = appended.length + replaced.length;
    return this.#transaction(count === 1 ? "a message" : `${count} messages`, () => {
      const meta = this.#sessions.get(id);
      if (!meta)
        throw new StorageError("other", `Session ${id} is missing, so the change was kept in memory only.`);
      const next = metaAfterWrite(meta, appended, change.leafId, Date.now());
      const records = [
        ...replaced.map(({ seq, entry }) => copy(entryRecord(id, seq, next.revision, entry))),
        ...appended.map((entry, index) => copy(entryRecord(id, meta.nextSeq + index, next.revision, entry))),
      ];
      return {
        result: { meta: copy(next), records: records.map(copy) },
        commit: () => {
          const stored = this.#entries.get(id) ?? new Map<number, EntryRecord>();
          for (const record of records) stored.set(record.seq, record);
          this.#entries.set(id, stored);
          this.#sessions.set(id, next);
        },
      };
    });
  }

  async updateMeta(id: string, patch: MetaPatch): Promise<SessionMeta> {
    return this.#transaction("the session settings", () => {
      const meta = this.#sessions.get(id);
      if (!meta) throw new StorageError("other", `Session ${id} is missing or unreadable.`);
      const next = copy(metaAfterPatch(meta, patch, Date.now()));
      return { result: copy(next), commit: () => this.#sessions.set(id, next) };
    });
  }

  async appendCall(id: string, call: NewCall): Promise<{ call: CallRecord; meta: SessionMeta }> {
    return this.#transaction("the record of a model call", () => {
      const meta = this.#sessions.get(id);
      if (!meta) throw new StorageError("other", `Session ${id} is missing, so the call was not recorded.`);
      const { summary, body } = copy(callRecords(id, meta.nextCallSeq ?? 0, call));
      const next = metaAfterCall(meta, summary, keptBytes(body), Date.now());
      return {
        result: { call: copy(summary), meta: copy(next) },
        commit: () => {
          this.#calls.set(id, [...(this.#calls.get(id) ?? []), { summary, body }]);
          this.#sessions.set(id, next);
        },
      };
    });
  }

  async listCalls(
    id: string,
    latest?: LatestCallsRequest,
  ): Promise<{ calls: CallRecord[]; warnings: string[] }> {
    const calls = (this.#calls.get(id) ?? []).map((call) => copy(call.summary));
    const newest = latest ? calls.filter((call) => call.seq >= latest.from) : calls;
    if (latest && newest.length < calls.length) latest.onRead({ calls: newest, total: calls.length });
    return { calls, warnings: [] };
  }

  async readCallBody(id: string, seq: number): Promise<CallBodyRecord | undefined> {
    const body = this.#calls.get(id)?.find((call) => call.summary.seq === seq)?.body;
    return body && copy(body);
  }

  async deleteSession(id: string): Promise<void> {
    await this.#transaction("the deletion", () => ({
      result: undefined,
      commit: () => {
        this.#sessions.delete(id);
        this.#entries.delete(id);
        this.#calls.delete(id);
        this.#inflight.delete(id);
      },
    }));
  }

  async saveInflight(id: string, message: AgentMessage, tabId?: string): Promise<void> {
    const record = copy(inflightRecord(id, message, tabId));
    await this.#transaction("the streaming reply", () => ({
      result: undefined,
      commit: () => this.#inflight.set(id, record),
    }));
  }

  async readInflight(id: string): Promise<InflightRecord | undefined> {
    const record = this.#inflight.get(id);
    return record && copy(record);
  }

  async clearInflight(id: string): Promise<void> {
    this.#inflight.delete(id);
  }

  #sorted(id: string): EntryRecord[] {
    return [...(this.#entries.get(id)?.values() ?? [])].sort((a, b) => a.seq - b.seq);
  }

  /** Prepare a write, let the fault hook fail it, then keep it: all of it or none, reported asynchronously. */
  async #transaction<T>(action: string, prepare: () => { result: T; commit: () => void }): Promise<T> {
    await Promise.resolve();
    try {
      const { result, commit } = prepare();
      this.#options.beforeCommit?.();
      commit();
      return result;
    } catch (error) {
      throw toStorageError(error, action);
    }
  }
}

/** What IndexedDB does to every value going in and out: a deep copy (and a DataCloneError for what it cannot copy). */
function copy<T>(value: T): T {
  return structuredClone(value);
}
