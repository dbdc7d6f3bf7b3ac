import { contentText } from "@earendil-works/pi-ai";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { InflightRecord, MessageRecord, SessionMeta } from "./records.ts";

/** A session read back from storage, with what had to be skipped and why. */
export interface LoadedSession {
  meta: SessionMeta;
  facts: AgentMessage[];
  /** Storage sequence number of each fact, parallel to `facts`. */
  seqs: number[];
  /** One sentence per skipped record, naming it. */
  warnings: string[];
  /** The reply that was streaming when the page went away, if one was saved. */
  inflight?: InflightRecord;
}

export interface SessionList {
  sessions: SessionMeta[];
  warnings: string[];
}

export interface MessagesSince {
  records: MessageRecord[];
  warnings: string[];
}

export type StorageFailureKind = "quota" | "unavailable" | "other";

/** A storage failure with its kind, so the UI can say exactly what went wrong and what to do. */
export class StorageError extends Error {
  readonly kind: StorageFailureKind;
  constructor(kind: StorageFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = "StorageError";
  }
}

/** Classify a failure so the UI can tell a full disk from a missing database. */
export function toStorageError(error: unknown, action: string): StorageError {
  if (error instanceof StorageError) return error;
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "QuotaExceededError") {
    return new StorageError(
      "quota",
      `The browser's storage quota is full, so ${action} could not be saved.`,
      { cause: error },
    );
  }
  if (name === "InvalidStateError" || name === "UnknownError" || name === "SecurityError") {
    return new StorageError(
      "unavailable",
      `IndexedDB is unavailable, so ${action} could not be saved: ${message}`,
      { cause: error },
    );
  }
  return new StorageError("other", `Saving ${action} failed: ${message || name || "unknown error"}`, {
    cause: error,
  });
}

export type MetaPatch = Partial<Pick<SessionMeta, "title" | "titleIsCustom" | "settings" | "forkedFrom">>;

/**
 * Where sessions live: one small metadata record per session and one record per message, so appending
 * costs the same at message 10,000 as at message 10 and listing sessions never reads messages.
 */
export interface SessionStore {
  readonly kind: "indexeddb" | "memory";
  listSessions(): Promise<SessionList>;
  /** Create a session with its initial facts; returns their sequence numbers. Never overwrites an existing id. */
  createSession(meta: SessionMeta, facts: readonly AgentMessage[]): Promise<number[]>;
  loadSession(id: string): Promise<LoadedSession | undefined>;
  /** Records with a sequence number above `afterSeq`, for catching up with writes from another tab. */
  loadMessagesSince(id: string, afterSeq: number): Promise<MessagesSince>;
  getMeta(id: string): Promise<SessionMeta | undefined>;
  /** Sequence numbers of every stored message of a session (keys only), ascending. */
  listSeqs(id: string): Promise<number[]>;
  /** One stored message, or undefined when it is missing or unreadable. */
  readMessage(id: string, seq: number): Promise<MessageRecord | undefined>;
  /** Append messages in one transaction; sequence numbers are allocated inside it, so tabs never collide. */
  appendMessages(id: string, messages: readonly AgentMessage[]): Promise<number[]>;
  /** Replace one stored message (an approval decided, for example). */
  putMessage(id: string, seq: number, message: AgentMessage): Promise<void>;
  updateMeta(id: string, patch: MetaPatch): Promise<SessionMeta>;
  deleteSession(id: string): Promise<void>;
  saveInflight(id: string, message: AgentMessage, tabId?: string): Promise<void>;
  /** The reply that was streaming when its page went away, if one is stored. */
  readInflight(id: string): Promise<InflightRecord | undefined>;
  clearInflight(id: string): Promise<void>;
}

export const NEW_SESSION_TITLE = "New session";
const TITLE_LENGTH = 60;

/** The title a session takes from its first user message until someone renames it. */
function titleFromMessage(message: AgentMessage): string | undefined {
  if (message.role !== "user") return undefined;
  const line = contentText(message.content, " ").replace(/\s+/g, " ").trim();
  if (!line) return undefined;
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** Apply an append to a session's metadata: counts, sequence, time, and the automatic title. */
export function metaAfterAppend(
  meta: SessionMeta,
  messages: readonly AgentMessage[],
  now: number,
): SessionMeta {
  let title = meta.title;
  if (!meta.titleIsCustom && title === NEW_SESSION_TITLE) {
    for (const message of messages) {
      const candidate = titleFromMessage(message);
      if (candidate) {
        title = candidate;
        break;
      }
    }
  }
  return {
    ...meta,
    title,
    nextSeq: meta.nextSeq + messages.length,
    messageCount: meta.messageCount + messages.length,
    updatedAt: now,
  };
}
