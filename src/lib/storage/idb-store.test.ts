import "fake-indexeddb/auto";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { DB_NAME, IdbSessionStore } from "./idb-store.ts";
import { toStorageError } from "./session-store.ts";
import { defaultSettings, SCHEMA_VERSION, type SessionMeta } from "./records.ts";
import { NEW_SESSION_TITLE } from "./session-store.ts";

function meta(id: string): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: NEW_SESSION_TITLE,
    titleIsCustom: false,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 0,
    nextSeq: 0,
    settings: defaultSettings(),
  };
}

const system: AgentMessage = { role: "system", content: "p", timestamp: 0 };
let store: IdbSessionStore;

beforeEach(async () => {
  store = await IdbSessionStore.open();
});

afterEach(async () => {
  store.close();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(DB_NAME);
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
  });
});

/** Write a raw record, as a damaged database or a newer app version would have. */
async function plant(record: unknown): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve) => {
    const request = indexedDB.open(DB_NAME);
    request.onsuccess = () => resolve(request.result);
  });
  await new Promise<void>((resolve) => {
    const tx = db.transaction("messages", "readwrite");
    tx.objectStore("messages").put(record);
    tx.oncomplete = () => resolve();
  });
  db.close();
}

describe("IdbSessionStore", () => {
  it("stores one record per message and restores the session exactly", async () => {
    await store.createSession(meta("a"), [system]);
    const seqs = await store.appendMessages("a", [createUserMessage("hello", 1)]);
    await store.appendMessages("a", [createNotification("n", "info", 2)]);
    expect(seqs).toEqual([1]);
    const loaded = await store.loadSession("a");
    expect(loaded?.facts).toEqual([
      system,
      createUserMessage("hello", 1),
      createNotification("n", "info", 2),
    ]);
    expect(loaded?.seqs).toEqual([0, 1, 2]);
    expect(loaded?.meta).toMatchObject({ messageCount: 3, nextSeq: 3, title: "hello" });
  });

  it("keeps sessions apart and lists metadata without messages", async () => {
    await store.createSession(meta("a"), [system]);
    await store.createSession(meta("b"), [system, createUserMessage("b1", 1)]);
    await store.appendMessages("a", [createUserMessage("a1", 2)]);
    expect((await store.loadSession("a"))?.facts).toHaveLength(2);
    expect((await store.loadSession("b"))?.facts).toHaveLength(2);
    const { sessions } = await store.listSessions();
    expect(sessions.map((session) => session.id).sort()).toEqual(["a", "b"]);
    expect(sessions.every((session) => !("facts" in session))).toBe(true);
  });

  it("never overwrites an existing session on create", async () => {
    await store.createSession(meta("a"), [system]);
    await expect(store.createSession(meta("a"), [])).rejects.toThrow();
    expect((await store.loadSession("a"))?.facts).toEqual([system]);
  });

  it("skips a damaged or newer record with a warning naming it, and never reuses its sequence number", async () => {
    await store.createSession(meta("a"), [system]);
    await store.appendMessages("a", [createUserMessage("one", 1), createUserMessage("two", 2)]);
    await plant({
      schema: SCHEMA_VERSION,
      sessionId: "a",
      seq: 1,
      message: { role: "wizard", timestamp: 1 },
    });
    await plant({ schema: 99, sessionId: "a", seq: 2, message: createUserMessage("from the future", 3) });
    const loaded = await store.loadSession("a");
    expect(loaded?.facts).toEqual([system]);
    expect(loaded?.warnings).toEqual([
      expect.stringMatching(/^Skipped stored message #1: Unknown role "wizard"/),
      expect.stringMatching(/^Skipped stored message #2: it was written by a newer version/),
    ]);
    expect(await store.appendMessages("a", [createUserMessage("three", 4)])).toEqual([3]);
  });

  it("reads what another tab appended since a sequence number", async () => {
    await store.createSession(meta("a"), [system]);
    await store.appendMessages("a", [createUserMessage("one", 1), createUserMessage("two", 2)]);
    const { records } = await store.loadMessagesSince("a", 1);
    expect(records.map((record) => record.seq)).toEqual([2]);
  });

  it("replaces a message in place and deletes everything of a session", async () => {
    await store.createSession(meta("a"), [system, createUserMessage("x", 1)]);
    await store.putMessage("a", 1, createUserMessage("y", 1));
    expect((await store.loadSession("a"))?.facts[1]).toEqual(createUserMessage("y", 1));
    await store.saveInflight("a", createUserMessage("partial", 2));
    await store.deleteSession("a");
    expect(await store.loadSession("a")).toBeUndefined();
    expect((await store.loadMessagesSince("a", -1)).records).toEqual([]);
  });

  it("keeps the streaming reply until it is cleared", async () => {
    await store.createSession(meta("a"), [system]);
    const partial: AgentMessage = {
      role: "assistant",
      content: [{ type: "text", text: "half" }],
      api: "a",
      provider: "p",
      model: "m",
      usage: zeroUsage(),
      stopReason: "pending",
      timestamp: 5,
    };
    await store.saveInflight("a", partial);
    expect((await store.loadSession("a"))?.inflight?.message).toEqual(partial);
    await store.clearInflight("a");
    expect((await store.loadSession("a"))?.inflight).toBeUndefined();
  });

  it("updates settings and title without touching messages", async () => {
    await store.createSession(meta("a"), [system]);
    const updated = await store.updateMeta("a", { title: "Renamed", titleIsCustom: true });
    expect(updated).toMatchObject({ title: "Renamed", titleIsCustom: true, messageCount: 1 });
    await store.appendMessages("a", [createUserMessage("would have been the title", 1)]);
    expect((await store.getMeta("a"))?.title).toBe("Renamed");
  });
});

describe("toStorageError", () => {
  it("recognises a full quota", () => {
    const error = toStorageError(new DOMException("quota", "QuotaExceededError"), "a message");
    expect(error.kind).toBe("quota");
    expect(error.message).toBe("The browser's storage quota is full, so a message could not be saved.");
  });
});
