import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import FDBOpenDBRequest from "fake-indexeddb/lib/FDBOpenDBRequest";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it, vi } from "vitest";
import { messageOf, chainEntries } from "../messages/entries.ts";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { IdbSessionStore } from "./idb-store.ts";
import { SCHEMA_VERSION } from "./records.ts";
import { DB_NAME, DB_VERSION } from "./schema.ts";
import { toStorageError } from "./session-store.ts";
import { testSessionMeta } from "./session-meta.test-support.ts";

const meta = (id: string) => testSessionMeta(id);

const system: AgentMessage = { role: "system", content: "p", timestamp: 0 };

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Open the raw database (any version), as another tab or an older release of the playground would. */
function openRaw(
  factory: IDBFactory,
  version?: number,
  upgrade?: (db: IDBDatabase) => void,
): Promise<IDBDatabase> {
  const req = factory.open(DB_NAME, version);
  if (upgrade) req.onupgradeneeded = () => upgrade(req.result);
  return request(req);
}

/** Write a raw record, as a damaged database or a newer release would have left it. */
async function plant(factory: IDBFactory, record: unknown): Promise<void> {
  const db = await openRaw(factory);
  const tx = db.transaction("entries", "readwrite");
  tx.objectStore("entries").put(record);
  await new Promise<void>((resolve) => (tx.oncomplete = () => resolve()));
  db.close();
}

describe("IdbSessionStore", () => {
  it("skips a damaged or newer record with a warning naming it, and never reuses its sequence number", async () => {
    const factory = new IDBFactory();
    const store = await IdbSessionStore.open({ factory });
    const entries = chainEntries([system, createUserMessage("one", 1), createUserMessage("two", 2)], null);
    await store.createSession(meta("a"), entries);
    await plant(factory, {
      schema: SCHEMA_VERSION,
      sessionId: "a",
      seq: 1,
      rev: 1,
      entry: { ...entries[1], message: { role: "user", content: 42, timestamp: 1 } },
    });
    await plant(factory, { schema: 99, sessionId: "a", seq: 2, rev: 1, entry: entries[2] });
    const loaded = await store.loadSession("a");
    expect(loaded?.records.map((record) => messageOf(record.entry))).toEqual([system]);
    expect(loaded?.warnings).toEqual([
      expect.stringMatching(/^Skipped stored entry #1: content must be text or a list of content parts/),
      expect.stringMatching(/^Skipped stored entry #2: it was written by a newer version/),
    ]);
    const result = await store.write("a", {
      append: chainEntries([createUserMessage("three", 4)], entries[0]?.id ?? null),
    });
    expect(result.records.map((record) => record.seq)).toEqual([3]);
    store.close();
  });

  it("migrates a version-1 database: each flat list becomes one path of entries, ending where it ended", async () => {
    const factory = new IDBFactory();
    const old = await openRaw(factory, 1, (db) => {
      db.createObjectStore("sessions", { keyPath: "id" });
      db.createObjectStore("messages", { keyPath: ["sessionId", "seq"] });
      db.createObjectStore("inflight", { keyPath: "sessionId" });
    });
    const tx = old.transaction(["sessions", "messages"], "readwrite");
    tx.objectStore("sessions").put({
      ...meta("a"),
      schema: 1,
      nextSeq: 4,
      messageCount: 4,
      revision: undefined,
      leafId: undefined,
    });
    tx.objectStore("messages").put({ schema: 1, sessionId: "a", seq: 0, message: system });
    // Version 0: a message stored bare, with its keys beside it.
    tx.objectStore("messages").put({ sessionId: "a", seq: 1, ...createUserMessage("bare", 1) });
    tx.objectStore("messages").put({
      schema: 1,
      sessionId: "a",
      seq: 2,
      message: { role: "user", content: 42, timestamp: 2 },
    });
    tx.objectStore("messages").put({
      schema: 1,
      sessionId: "a",
      seq: 3,
      message: createNotification("last", "info", 3),
    });
    await new Promise<void>((resolve) => (tx.oncomplete = () => resolve()));
    old.close();

    const store = await IdbSessionStore.open({ factory });
    const loaded = await store.loadSession("a");
    if (!loaded) throw new Error("the session did not survive the upgrade");
    expect(loaded.records.map((record) => messageOf(record.entry))).toEqual([
      system,
      createUserMessage("bare", 1),
      createNotification("last", "info", 3),
    ]);
    // One path: each entry's parent is the one stored before it (the damaged one included, then skipped).
    const [first, second, third] = loaded.records;
    expect(first?.entry.parentId).toBeNull();
    expect(second?.entry.parentId).toBe(first?.entry.id);
    expect(third?.entry.parentId).not.toBe(second?.entry.id);
    expect(loaded.meta.leafId).toBe(third?.entry.id);
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/^Skipped stored entry #2: content must be text/),
    ]);
    const db = await openRaw(factory);
    expect([...db.objectStoreNames].sort()).toEqual([
      "callBodies",
      "calls",
      "entries",
      "inflight",
      "sessions",
    ]);
    expect(db.version).toBe(DB_VERSION);
    db.close();
    store.close();
  });

  it("lets a newer version upgrade while this tab is open: it lets go and asks for a reload", async () => {
    const factory = new IDBFactory();
    const onVersionChange = vi.fn();
    const store = await IdbSessionStore.open({ factory, onVersionChange });
    await store.createSession(meta("a"), chainEntries([system], null));
    // Another tab runs a newer release that needs version DB_VERSION + 1.
    const newer = await openRaw(factory, DB_VERSION + 1, () => undefined);
    expect(newer.version).toBe(DB_VERSION + 1);
    expect(onVersionChange).toHaveBeenCalledTimes(1);
    // This tab's connection is closed: it neither blocks the upgrade nor writes into the new layout.
    await expect(store.getMeta("a")).rejects.toThrow();
    newer.close();
  });

  it("waits for an older tab that holds the database open, says so, and upgrades once it lets go", async () => {
    const factory = new IDBFactory();
    const old = await openRaw(factory, 1, (db) => {
      db.createObjectStore("sessions", { keyPath: "id" });
      db.createObjectStore("messages", { keyPath: ["sessionId", "seq"] });
      db.createObjectStore("inflight", { keyPath: "sessionId" });
    });
    // The old release ignores "versionchange", as round-one pages did.
    let blocked!: () => void;
    const wasBlocked = new Promise<void>((resolve) => (blocked = resolve));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const opening = IdbSessionStore.open({ factory, onBlocked: () => blocked(), timeoutMs: 50 });
      await wasBlocked;
      // A blocked upgrade is not a broken database: the clock stops while it waits.
      vi.advanceTimersByTime(10_000);
      old.close();
      const store = await opening;
      expect((await store.listSessions()).sessions).toEqual([]);
      store.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives up on a database that never answers, with a message that says so", async () => {
    // A request that is never answered, as a stuck browser leaves it (Safari 14.1 shipped such a bug).
    const never = { open: () => new FDBOpenDBRequest() } as unknown as IDBFactory;
    await expect(IdbSessionStore.open({ factory: never, timeoutMs: 30 })).rejects.toMatchObject({
      kind: "unavailable",
      message: expect.stringContaining("did not answer"),
    });
  });
});

describe("toStorageError", () => {
  it("recognises a full quota, a missing database and a value that cannot be stored", () => {
    expect(toStorageError(new DOMException("x", "QuotaExceededError"), "a message").kind).toBe("quota");
    expect(toStorageError(new DOMException("x", "InvalidStateError"), "a message").kind).toBe("unavailable");
    expect(toStorageError(new DOMException("x", "DataCloneError"), "a message").kind).toBe("unstorable");
    expect(toStorageError(new RangeError("Maximum call stack size exceeded"), "a message")).toMatchObject({
      kind: "unstorable",
      message: expect.stringMatching(/^A message cannot be stored/),
    });
  });
});
