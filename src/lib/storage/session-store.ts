import { contentText } from "@earendil-works/pi-ai";
import type { SessionEntry } from "../messages/entries.ts";
import type {
  CallBodyRecord,
  CallRecord,
  EntryRecord,
  InflightRecord,
  NewCall,
  SessionMeta,
} from "./records.ts";

/** A session read back from storage, with what had to be skipped and why. */
export interface LoadedSession {
  meta: SessionMeta;
  /** Every readable entry, in order of creation (sequence number). */
  records: EntryRecord[];
  /** One sentence per skipped record, naming it. */
  warnings: string[];
  /** The reply that was streaming when the page went away, if one was saved. */
  inflight?: InflightRecord;
}

export interface SessionList {
  sessions: SessionMeta[];
  warnings: string[];
}

/** What changed in a session since a revision: the entry versions written after it, and the meta now. */
export interface ChangesSince {
  meta: SessionMeta;
  records: EntryRecord[];
  warnings: string[];
}

export type StorageFailureKind = "quota" | "unavailable" | "unstorable" | "other";

/** A storage failure with its kind, so the UI can say exactly what went wrong and what to do. */
export class StorageError extends Error {
  readonly kind: StorageFailureKind;
  constructor(kind: StorageFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = "StorageError";
  }
}

/** Classify a failure so the UI can tell a full disk from a missing database or a value no store can hold. */
export function toStorageError(error: unknown, action: string): StorageError {
  if (error instanceof StorageError) return error;
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (name === "QuotaExceededError") {
    return new StorageError(
      "quota",
      `The browser's storage quota is full, so ${action} could not be saved.`,
      {
        cause: error,
      },
    );
  }
  if (name === "InvalidStateError" || name === "UnknownError" || name === "SecurityError") {
    return new StorageError(
      "unavailable",
      `IndexedDB is unavailable, so ${action} could not be saved: ${message}`,
      {
        cause: error,
      },
    );
  }
  // A value the structured clone cannot copy (too deeply nested, a function): retrying never helps.
  if (name === "DataCloneError" || name === "RangeError" || error instanceof RangeError) {
    return new StorageError(
      "unstorable",
      `${capitalize(action)} cannot be stored: the browser cannot copy it (${message || name}).`,
      { cause: error },
    );
  }
  return new StorageError("other", `Saving ${action} failed: ${message || name || "unknown error"}`, {
    cause: error,
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type MetaPatch = Partial<
  Pick<SessionMeta, "title" | "titleIsCustom" | "settings" | "forkedFrom" | "leafId">
>;

/** A write's outcome: the records as stored (with their sequence numbers) and the session's new metadata. */
export interface WriteResult {
  meta: SessionMeta;
  records: EntryRecord[];
}

/** Creating a large session (an import): how far it has come, and a way to give it up. */
export interface CreateOptions {
  /** Aborted before the session is stored: nothing is stored, and the promise rejects with its reason. */
  signal?: AbortSignal;
  /** Entries handed to storage so far, of all. */
  onProgress?: (done: number, total: number) => void;
  /**
   * The session is stored by whoever holds its entries (an import's worker, so that the page never copies
   * them into IndexedDB): given its metadata, it stores metadata and entries as `createSession` would, in
   * one transaction, and returns the metadata stored. The store itself then writes nothing.
   */
  storedElsewhere?: (meta: SessionMeta) => Promise<SessionMeta>;
}

/**
 * Where sessions live: one small metadata record per session and one record per entry, so appending costs
 * the same at entry 10,000 as at entry 10 and listing sessions never reads entries. Every write returns
 * the new metadata, so callers never read the list again to learn what they just wrote.
 */
export interface SessionStore {
  readonly kind: "indexeddb" | "memory";
  listSessions(): Promise<SessionList>;
  getMeta(id: string): Promise<SessionMeta | undefined>;
  /** Create a session with its first entries. Never overwrites an existing id. */
  createSession(
    meta: SessionMeta,
    entries: readonly SessionEntry[],
    options?: CreateOptions,
  ): Promise<WriteResult>;
  loadSession(id: string): Promise<LoadedSession | undefined>;
  /** The entry versions written after `revision` (appended or replaced), for catching up with other tabs. */
  changesSince(id: string, revision: number): Promise<ChangesSince | undefined>;
  /**
   * Append entries and replace entries (by sequence number) in one transaction; sequence numbers and the
   * revision are allocated inside it, so tabs never collide. The leaf moves to `leafId` when given, else to
   * the last appended entry.
   */
  write(
    id: string,
    change: {
      append?: readonly SessionEntry[];
      replace?: readonly { seq: number; entry: SessionEntry }[];
      leafId?: string | null;
    },
  ): Promise<WriteResult>;
  /** Applies `metaAfterPatch`. */
  updateMeta(id: string, patch: MetaPatch): Promise<SessionMeta>;
  /** Record a model call (summary and body in one transaction); calls are never changed afterwards. */
  appendCall(id: string, call: NewCall): Promise<{ call: CallRecord; meta: SessionMeta }>;
  /**
   * The summaries of a session's calls, in order (bodies are read one at a time). With `latest`, the
   * calls from `latest.from` on are read first, in the same transaction, and told with how many calls
   * are stored when there are others: a list that opens on its end shows them while the rest is read.
   */
  listCalls(id: string, latest?: LatestCallsRequest): Promise<{ calls: CallRecord[]; warnings: string[] }>;
  readCallBody(id: string, seq: number): Promise<CallBodyRecord | undefined>;
  deleteSession(id: string): Promise<void>;
  saveInflight(id: string, message: InflightRecord["message"], tabId?: string): Promise<void>;
  /** The reply that was streaming when its page went away, if one is stored. */
  readInflight(id: string): Promise<InflightRecord | undefined>;
  clearInflight(id: string): Promise<void>;
  close(): void;
}

export interface LatestCallsRequest {
  /** The sequence number of the first call read first. */
  from: number;
  /**
   * `calls`: the calls from `from` on (fewer when some are damaged); `total`: how many calls are stored,
   * damaged ones included. Called only when calls before `from` are stored.
   */
  onRead: (latest: { calls: CallRecord[]; total: number }) => void;
}

export const NEW_SESSION_TITLE = "New session";
const TITLE_LENGTH = 60;

/** The title a session takes from its first user message until someone renames it. */
function titleFromEntry(entry: SessionEntry): string | undefined {
  if (entry.type !== "message" || entry.message.role !== "user") return undefined;
  const line = contentText(entry.message.content, " ").replace(/\s+/g, " ").trim();
  if (!line) return undefined;
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** Apply a write to a session's metadata: counts, sequence, revision, leaf, time, and the automatic title. */
export function metaAfterWrite(
  meta: SessionMeta,
  appended: readonly SessionEntry[],
  leafId: string | null | undefined,
  now: number,
): SessionMeta {
  let title = meta.title;
  if (!meta.titleIsCustom && title === NEW_SESSION_TITLE) {
    for (const entry of appended) {
      const candidate = titleFromEntry(entry);
      if (candidate) {
        title = candidate;
        break;
      }
    }
  }
  return {
    ...meta,
    title,
    nextSeq: meta.nextSeq + appended.length,
    messageCount: meta.messageCount + appended.length,
    revision: meta.revision + 1,
    leafId: leafId !== undefined ? leafId : (appended.at(-1)?.id ?? meta.leafId),
    updatedAt: now,
  };
}

/**
 * The leaf a new session starts at: the entry named when it is one of its entries (an imported tree
 * continues where its file did), else the last entry.
 */
export function leafOnCreate(leafId: string | null, entries: readonly SessionEntry[]): string | null {
  if (leafId !== null && entries.some((entry) => entry.id === leafId)) return leafId;
  return entries.at(-1)?.id ?? null;
}

/**
 * A session's metadata after a patch. A moved leaf changes the conversation: a new revision (other tabs
 * read it), and the session becomes the most recent. Settings and the title do not: changing a policy or
 * renaming leaves the session where it is in the list.
 */
export function metaAfterPatch(meta: SessionMeta, patch: MetaPatch, now: number): SessionMeta {
  const leafMoved = patch.leafId !== undefined && patch.leafId !== meta.leafId;
  return {
    ...meta,
    ...patch,
    revision: meta.revision + (leafMoved ? 1 : 0),
    updatedAt: leafMoved ? now : meta.updatedAt,
  };
}

/**
 * A session's metadata after a call was recorded: the next call number and the bytes kept. The session's
 * last activity is when the call ended, not when its record was stored: storing waits for the provider's
 * payload and may finish well after the reply was shown, and an imported call happened when its file says.
 * A time ahead of `now` (a hostile file) counts as `now`, and activity never moves back.
 */
export function metaAfterCall(
  meta: SessionMeta,
  call: Pick<CallRecord, "startedAt" | "timing">,
  bytes: number,
  now: number,
): SessionMeta {
  const endedAt = call.startedAt + call.timing.durationMs;
  const activityAt = Number.isFinite(endedAt) ? Math.min(endedAt, now) : now;
  return {
    ...meta,
    nextCallSeq: (meta.nextCallSeq ?? 0) + 1,
    callBytes: (meta.callBytes ?? 0) + bytes,
    updatedAt: Math.max(meta.updatedAt, activityAt),
  };
}
