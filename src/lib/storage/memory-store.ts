import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  inflightRecord,
  messageRecord,
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
} from "./session-store.ts";

/**
 * The store used when IndexedDB is unavailable (some private windows, disabled storage): the playground
 * keeps working, and the UI says plainly that nothing survives a reload.
 */
export class MemorySessionStore implements SessionStore {
  readonly kind = "memory" as const;
  readonly #sessions = new Map<string, SessionMeta>();
  readonly #messages = new Map<string, MessageRecord[]>();
  readonly #inflight = new Map<string, InflightRecord>();

  async listSessions(): Promise<SessionList> {
    return { sessions: [...this.#sessions.values()].sort((a, b) => b.updatedAt - a.updatedAt), warnings: [] };
  }

  async getMeta(id: string): Promise<SessionMeta | undefined> {
    return this.#sessions.get(id);
  }

  async createSession(meta: SessionMeta, facts: readonly AgentMessage[]): Promise<number[]> {
    if (this.#sessions.has(meta.id))
      throw new StorageError("other", `A session with id ${meta.id} already exists.`);
    this.#sessions.set(meta.id, { ...meta, nextSeq: facts.length, messageCount: facts.length });
    this.#messages.set(
      meta.id,
      facts.map((message, seq) => messageRecord(meta.id, seq, message)),
    );
    return facts.map((_, seq) => seq);
  }

  async loadSession(id: string): Promise<LoadedSession | undefined> {
    const meta = this.#sessions.get(id);
    if (!meta) return undefined;
    const records = this.#messages.get(id) ?? [];
    const inflight = this.#inflight.get(id);
    return {
      meta,
      facts: records.map((record) => record.message),
      seqs: records.map((record) => record.seq),
      warnings: [],
      ...(inflight ? { inflight } : {}),
    };
  }

  async loadMessagesSince(id: string, afterSeq: number): Promise<MessagesSince> {
    return {
      records: (this.#messages.get(id) ?? []).filter((record) => record.seq > afterSeq),
      warnings: [],
    };
  }

  async listSeqs(id: string): Promise<number[]> {
    return (this.#messages.get(id) ?? []).map((record) => record.seq).sort((a, b) => a - b);
  }

  async readMessage(id: string, seq: number): Promise<MessageRecord | undefined> {
    return (this.#messages.get(id) ?? []).find((record) => record.seq === seq);
  }

  async appendMessages(id: string, messages: readonly AgentMessage[]): Promise<number[]> {
    const meta = this.#sessions.get(id);
    if (!meta)
      throw new StorageError("other", `Session ${id} is missing, so the message was kept in memory only.`);
    const records = this.#messages.get(id) ?? [];
    const seqs = messages.map((message, index) => {
      const seq = meta.nextSeq + index;
      records.push(messageRecord(id, seq, message));
      return seq;
    });
    this.#messages.set(id, records);
    this.#sessions.set(id, metaAfterAppend(meta, messages, Date.now()));
    return seqs;
  }

  async putMessage(id: string, seq: number, message: AgentMessage): Promise<void> {
    const records = this.#messages.get(id) ?? [];
    const index = records.findIndex((record) => record.seq === seq);
    const record = messageRecord(id, seq, message);
    if (index === -1) records.push(record);
    else records[index] = record;
    this.#messages.set(id, records);
  }

  async updateMeta(id: string, patch: MetaPatch): Promise<SessionMeta> {
    const meta = this.#sessions.get(id);
    if (!meta) throw new StorageError("other", `Session ${id} is missing.`);
    const next = { ...meta, ...patch, updatedAt: Date.now() };
    this.#sessions.set(id, next);
    return next;
  }

  async deleteSession(id: string): Promise<void> {
    this.#sessions.delete(id);
    this.#messages.delete(id);
    this.#inflight.delete(id);
  }

  async saveInflight(id: string, message: AgentMessage, tabId?: string): Promise<void> {
    this.#inflight.set(id, inflightRecord(id, message, tabId));
  }

  async readInflight(id: string): Promise<InflightRecord | undefined> {
    return this.#inflight.get(id);
  }

  async clearInflight(id: string): Promise<void> {
    this.#inflight.delete(id);
  }
}
