import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from "idb";
import { isObject } from "../../shared/is-object.ts";
import { entryTimestamp, newEntryId } from "../messages/entries.ts";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  SCHEMA_VERSION,
  type CallBodyRecord,
  type CallRecord,
  type EntryRecord,
  type InflightRecord,
  type SessionMeta,
} from "./records.ts";
import { StorageError } from "./session-store.ts";
import { DEFAULT_STORAGE_LIMITS } from "./storage-limits.ts";

export const DB_NAME = "pi-playground";
/**
 * IndexedDB's own version, bumped when stores or indexes change (record schemas are versioned apart).
 * 1: sessions, messages (one flat list per session), inflight. 2: messages become tree entries, with an
 * index by revision for catching up; the record of each model call (a small summary, and its body apart).
 */
export const DB_VERSION = 2;

export const SESSIONS = "sessions";
export const ENTRIES = "entries";
export const CALLS = "calls";
export const CALL_BODIES = "callBodies";
export const INFLIGHT = "inflight";
export const BY_REVISION = "byRevision";

/** Records are validated when read, so the schema types what is written and reads go through `read*`. */
export interface PlaygroundDb extends DBSchema {
  sessions: { key: string; value: SessionMeta };
  entries: { key: [string, number]; value: EntryRecord; indexes: { byRevision: [string, number] } };
  calls: { key: [string, number]; value: CallRecord };
  callBodies: { key: [string, number]; value: CallBodyRecord };
  inflight: { key: string; value: InflightRecord };
}

export type PlaygroundDatabase = IDBPDatabase<PlaygroundDb>;

export interface OpenOptions {
  factory?: IDBFactory;
  /** Give up on a database that never answers (a browser bug can leave `open` pending forever). */
  timeoutMs?: number;
  /** A newer version of the playground wants to upgrade: this connection is closed; the page must reload. */
  onVersionChange?: () => void;
  /** Our upgrade waits for an older tab to let go of the database. */
  onBlocked?: () => void;
}

export const DEFAULT_OPEN_TIMEOUT_MS = DEFAULT_STORAGE_LIMITS.openTimeoutMs;

/** Open (creating or upgrading) the playground's database, or fail with a StorageError that says why. */
export async function openPlaygroundDb(options: OpenOptions = {}): Promise<PlaygroundDatabase> {
  const factory = options.factory ?? globalThis.indexedDB;
  if (!factory) throw new StorageError("unavailable", "This browser offers no IndexedDB.");
  let request: IDBOpenDBRequest;
  try {
    request = factory.open(DB_NAME, DB_VERSION);
  } catch (error) {
    throw new StorageError("unavailable", `IndexedDB is unavailable: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let upgrading: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  request.addEventListener("upgradeneeded", (event) => {
    const tx = request.transaction;
    if (!tx) return;
    upgrading = upgrade(
      wrap(request.result) as PlaygroundDatabase,
      event.oldVersion,
      wrap(tx) as unknown as UpgradeTx,
    ).catch((error: unknown) => {
      // A failed migration must not leave a half-upgraded database: abort, and the old version stays.
      tx.abort();
      throw error;
    });
  });
  request.addEventListener("blocked", () => {
    // An older tab holds the database open. It is not stuck, just in the way: stop the clock and say so.
    clearTimeout(timer);
    options.onBlocked?.();
  });
  const opening = (async () => {
    const db = await wrap(request);
    await upgrading;
    if (!db) throw new StorageError("unavailable", "IndexedDB opened no database.");
    db.addEventListener("versionchange", () => {
      // A newer version of the playground wants to upgrade: let it, and tell this page it must reload.
      db.close();
      options.onVersionChange?.();
    });
    return db as PlaygroundDatabase;
  })();
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Should it answer after all, let that connection go: the page has moved on without it.
      void opening.then((db) => db.close()).catch(() => undefined);
      reject(
        new StorageError(
          "unavailable",
          `IndexedDB did not answer within ${Math.round(timeoutMs / 1000)} s (the browser's storage is stuck).`,
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([opening, timeout]);
  } catch (error) {
    if (error instanceof StorageError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StorageError("unavailable", `IndexedDB could not be opened: ${reason}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

type UpgradeTx = IDBPTransaction<PlaygroundDb, StoreNames<PlaygroundDb>[], "versionchange">;

async function upgrade(db: PlaygroundDatabase, oldVersion: number, tx: UpgradeTx): Promise<void> {
  if (oldVersion < 1) {
    db.createObjectStore(SESSIONS, { keyPath: "id" });
    db.createObjectStore(INFLIGHT, { keyPath: "sessionId" });
  }
  if (oldVersion < 2) {
    const entries = db.createObjectStore(ENTRIES, { keyPath: ["sessionId", "seq"] });
    entries.createIndex(BY_REVISION, ["sessionId", "rev"]);
    db.createObjectStore(CALLS, { keyPath: ["sessionId", "seq"] });
    db.createObjectStore(CALL_BODIES, { keyPath: ["sessionId", "seq"] });
    if (oldVersion >= 1) await migrateMessagesToEntries(db, tx);
  }
}

/** The version-1 layout, only ever seen during the upgrade. */
const LEGACY_MESSAGES = "messages";

/**
 * Version 1 kept each session as a flat list of messages. Each becomes an entry whose parent is the one
 * stored before it, so the list is one path of the tree and the session ends where it ended. Damaged
 * messages are carried over as they are: reading them later skips them with a warning, as before.
 */
async function migrateMessagesToEntries(db: PlaygroundDatabase, tx: UpgradeTx): Promise<void> {
  // The legacy store is not part of the typed schema; the upgrade transaction still reaches it.
  const legacyTx = tx as unknown as IDBPTransaction<LegacyDb, ["messages"], "versionchange">;
  const legacy = legacyTx.objectStore(LEGACY_MESSAGES);
  const entries = tx.objectStore(ENTRIES);
  const leaves = new Map<string, string>();
  const taken = new Set<string>();
  for (let cursor = await legacy.openCursor(); cursor; cursor = await cursor.continue()) {
    const [sessionId, seq] = cursor.key;
    const raw: unknown = cursor.value;
    const message = isObject(raw) && "role" in raw ? stripKeys(raw) : isObject(raw) ? raw.message : raw;
    const id = newEntryId((candidate) => taken.has(candidate));
    taken.add(id);
    const parentId = leaves.get(sessionId) ?? null;
    leaves.set(sessionId, id);
    await entries.put({
      schema: SCHEMA_VERSION,
      sessionId,
      seq,
      rev: 0,
      entry: {
        type: "message",
        id,
        parentId,
        timestamp: isObject(message)
          ? entryTimestamp(message as unknown as AgentMessage)
          : new Date().toISOString(),
        message: message as AgentMessage,
      },
    });
  }
  const sessions = tx.objectStore(SESSIONS);
  for (let cursor = await sessions.openCursor(); cursor; cursor = await cursor.continue()) {
    const meta: unknown = cursor.value;
    if (!isObject(meta) || typeof meta.id !== "string") continue;
    await cursor.update({
      ...(meta as unknown as SessionMeta),
      schema: SCHEMA_VERSION,
      revision: 0,
      leafId: leaves.get(meta.id) ?? null,
    });
  }
  db.deleteObjectStore(LEGACY_MESSAGES as never);
}

interface LegacyDb extends DBSchema {
  messages: { key: [string, number]; value: unknown };
}

function stripKeys(record: Record<string, unknown>): Record<string, unknown> {
  const { sessionId: _sessionId, seq: _seq, schema: _schema, ...message } = record;
  return message;
}
