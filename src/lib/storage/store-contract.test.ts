import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { afterEach, describe, expect, it } from "vitest";
import { messageOf, chainEntries, type SessionEntry } from "../messages/entries.ts";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { IdbSessionStore } from "./idb-store.ts";
import { MemorySessionStore } from "./memory-store.ts";
import { SCHEMA_VERSION, type NewCall, type SessionMeta } from "./records.ts";
import { NEW_SESSION_TITLE, StorageError, type SessionStore } from "./session-store.ts";
import { failNextIdbPut } from "./test-faults.ts";

/**
 * One contract, two stores: everything the session runtime relies on holds for IndexedDB (fake-indexeddb
 * here, Chromium in the e2e journeys) and for the in-memory fallback alike — including that values are
 * copies, that a failed write leaves nothing behind, and that failures arrive asynchronously.
 */
interface Harness {
  store: SessionStore;
  /** The next write fails as a full disk does in a browser: the transaction aborts. */
  failNextWrite: () => void;
}

const harnesses: [string, () => Promise<Harness>][] = [
  [
    "IndexedDB",
    async () => ({
      store: await IdbSessionStore.open({ factory: new IDBFactory() }),
      failNextWrite: () => failNextIdbPut(),
    }),
  ],
  [
    "memory",
    async () => {
      let failing = false;
      const store = new MemorySessionStore({
        beforeCommit: () => {
          if (!failing) return;
          failing = false;
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        },
      });
      return { store, failNextWrite: () => (failing = true) };
    },
  ],
];

function meta(id: string, updatedAt = 1): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: NEW_SESSION_TITLE,
    titleIsCustom: false,
    createdAt: 1,
    updatedAt,
    messageCount: 0,
    nextSeq: 0,
    revision: 0,
    leafId: null,
    settings: { model: { provider: "mirror", id: "mirror" } },
  };
}

const system: AgentMessage = { role: "system", content: "p", timestamp: 0 };
const messagesOf = (entries: readonly { entry: SessionEntry }[]) =>
  entries.map((record) => messageOf(record.entry));

let open: SessionStore | undefined;
afterEach(() => open?.close());

describe.each(harnesses)("the %s store", (_name, make) => {
  async function setup(): Promise<Harness> {
    const harness = await make();
    open = harness.store;
    return harness;
  }

  it("creates a session with its entries and restores it exactly, leaf and revision included", async () => {
    const { store } = await setup();
    const entries = chainEntries([system, createUserMessage("hi", 1)], null);
    const created = await store.createSession(meta("a"), entries);
    expect(created.meta).toMatchObject({ nextSeq: 2, messageCount: 2, revision: 1, leafId: entries[1]?.id });
    const loaded = await store.loadSession("a");
    expect(loaded?.records.map((record) => record.seq)).toEqual([0, 1]);
    expect(loaded?.records.map((record) => record.entry)).toEqual(entries);
    expect(loaded?.meta).toEqual(created.meta);
    expect(await store.loadSession("missing")).toBeUndefined();
  });

  it("creates a tree at the leaf it is given, when that is one of its entries", async () => {
    const { store } = await setup();
    const [root, first] = chainEntries([system, createUserMessage("first", 1)], null);
    if (!root || !first) throw new Error("no entries");
    const [second] = chainEntries([createUserMessage("second", 2)], root.id);
    if (!second) throw new Error("no entries");
    const created = await store.createSession({ ...meta("a"), leafId: first.id }, [root, first, second]);
    expect(created.meta.leafId).toBe(first.id);
    expect((await store.loadSession("a"))?.meta.leafId).toBe(first.id);
    const unknown = await store.createSession({ ...meta("b"), leafId: "gone" }, [root, first, second]);
    expect(unknown.meta.leafId).toBe(second.id);
  });

  it("keeps an entry of a type it does not know exactly as read, and the header of an imported pi file", async () => {
    const { store } = await setup();
    const original = { type: "checkpoint", id: "k1", parentId: null, timestamp: "t", files: ["a"] };
    const entry: SessionEntry = { type: "unknown", id: "k1", parentId: null, timestamp: "t", original };
    const piHeader = { type: "session", version: 3, id: "pi", timestamp: "t", cwd: "/repo" };
    await store.createSession({ ...meta("a"), piHeader }, [entry]);
    const loaded = await store.loadSession("a");
    expect(loaded?.warnings).toEqual([]);
    expect(loaded?.records.map((record) => record.entry)).toEqual([entry]);
    expect(loaded?.meta.piHeader).toEqual(piHeader);
  });

  it("never overwrites an existing session on create", async () => {
    const { store } = await setup();
    await store.createSession(meta("a"), chainEntries([system], null));
    await expect(store.createSession(meta("a"), [])).rejects.toBeInstanceOf(StorageError);
    expect(messagesOf((await store.loadSession("a"))?.records ?? [])).toEqual([system]);
  });

  it("lists metadata only, newest first", async () => {
    const { store } = await setup();
    await store.createSession(meta("old", 1), chainEntries([system], null));
    await store.createSession(meta("new", 5), chainEntries([system], null));
    const { sessions } = await store.listSessions();
    expect(sessions.map((session) => session.id)).toEqual(["new", "old"]);
    expect(sessions[0]).not.toHaveProperty("records");
  });

  it("appends in one write: sequence numbers after the last, the leaf on the last, the title from the first prompt", async () => {
    const { store } = await setup();
    const [root] = chainEntries([system], null);
    if (!root) throw new Error("no root");
    await store.createSession(meta("a"), [root]);
    const added = chainEntries(
      [createUserMessage("What time is it?", 1), createNotification("n", "info", 2)],
      root.id,
    );
    const result = await store.write("a", { append: added });
    expect(result.records.map((record) => record.seq)).toEqual([1, 2]);
    expect(result.meta).toMatchObject({
      nextSeq: 3,
      messageCount: 3,
      revision: 2,
      leafId: added[1]?.id,
      title: "What time is it?",
    });
    expect(await store.getMeta("a")).toEqual(result.meta);
  });

  it("replaces an entry in place, and tells another tab exactly what changed since its revision", async () => {
    const { store } = await setup();
    const entries = chainEntries([system, createUserMessage("one", 1)], null);
    await store.createSession(meta("a"), entries);
    const known = (await store.getMeta("a"))?.revision ?? 0;
    const nothing = await store.changesSince("a", known);
    expect(nothing?.records).toEqual([]);

    const replaced = { ...(entries[1] as SessionEntry), message: createUserMessage("one, edited", 1) };
    const appended = chainEntries([createUserMessage("two", 2)], replaced.id);
    await store.write("a", { replace: [{ seq: 1, entry: replaced }], append: appended });
    const changes = await store.changesSince("a", known);
    expect(changes?.records.map((record) => [record.seq, messageOf(record.entry)])).toEqual([
      [1, replaced.message],
      [2, appended[0]?.message],
    ]);
    expect(changes?.meta.leafId).toBe(appended[0]?.id);
    expect(messagesOf((await store.loadSession("a"))?.records ?? [])).toEqual([
      system,
      replaced.message,
      appended[0]?.message,
    ]);
  });

  it("moves the leaf without new entries, as a change other tabs see", async () => {
    const { store } = await setup();
    const entries = chainEntries([system, createUserMessage("one", 1)], null);
    await store.createSession(meta("a"), entries);
    const before = (await store.getMeta("a"))?.revision ?? 0;
    const moved = await store.updateMeta("a", { leafId: entries[0]?.id ?? null });
    expect(moved.leafId).toBe(entries[0]?.id);
    expect(moved.revision).toBe(before + 1);
    const renamed = await store.updateMeta("a", { title: "T", titleIsCustom: true });
    expect(renamed.revision).toBe(moved.revision);
  });

  it("keeps a session's place in the list when only its settings or title change", async () => {
    const { store } = await setup();
    const entries = chainEntries([system, createUserMessage("one", 1)], null);
    await store.createSession(meta("older", 1), chainEntries([system], null));
    await store.createSession(meta("newer", 2), entries);
    const order = async () => (await store.listSessions()).sessions.map((session) => session.id);
    expect(await order()).toEqual(["newer", "older"]);
    const changed = await store.updateMeta("older", { settings: { model: { provider: "mirror", id: "x" } } });
    expect(changed.updatedAt).toBe(1);
    await store.updateMeta("older", { title: "Renamed", titleIsCustom: true });
    expect(await order()).toEqual(["newer", "older"]);
    // Moving its leaf is a change to the conversation: it becomes the most recent.
    const moved = await store.updateMeta("newer", { leafId: entries[0]?.id ?? null });
    expect(moved.updatedAt).toBeGreaterThan(2);
  });

  it("hands out copies, as IndexedDB does: nobody shares objects with the store", async () => {
    const { store } = await setup();
    const entries = chainEntries([createUserMessage("original", 1)], null);
    await store.createSession(meta("a"), entries);
    const first = await store.loadSession("a");
    const message = messageOf(first?.records[0]?.entry);
    if (message?.role !== "user" || typeof message.content === "string") throw new Error("unexpected");
    message.content[0] = { type: "text", text: "changed by a reader" };
    const again = await store.loadSession("a");
    expect(messageOf(again?.records[0]?.entry)).toEqual(createUserMessage("original", 1));
    expect(again?.records[0]?.entry).not.toBe(entries[0]);
  });

  it("keeps nothing of a write whose transaction aborts (a full disk), and says it is a full disk", async () => {
    const { store, failNextWrite } = await setup();
    const [root] = chainEntries([system], null);
    if (!root) throw new Error("no root");
    await store.createSession(meta("a"), [root]);
    const before = await store.getMeta("a");
    failNextWrite();
    const write = store.write("a", {
      append: chainEntries([createUserMessage("lost?", 1), createUserMessage("and?", 2)], root.id),
    });
    await expect(write).rejects.toMatchObject({ kind: "quota", name: "StorageError" });
    expect(await store.getMeta("a")).toEqual(before);
    expect(messagesOf((await store.loadSession("a"))?.records ?? [])).toEqual([system]);
    // The store works again once space is free.
    const retried = await store.write("a", { append: chainEntries([createUserMessage("kept", 3)], root.id) });
    expect(retried.records.map((record) => record.seq)).toEqual([1]);
  });

  it("creates a session whole or not at all: an import whose last entry cannot be stored leaves no trace", async () => {
    const { store, failNextWrite } = await setup();
    const facts = [system, createUserMessage("one", 1), createUserMessage("two", 2)];
    const bad = { ...createUserMessage("three", 3), details: () => undefined } as unknown as AgentMessage;
    await expect(
      store.createSession(meta("imported"), chainEntries([...facts, bad], null)),
    ).rejects.toMatchObject({
      name: "StorageError",
    });
    failNextWrite();
    await expect(store.createSession(meta("full"), chainEntries(facts, null))).rejects.toMatchObject({
      kind: "quota",
    });
    for (const id of ["imported", "full"]) {
      expect(await store.getMeta(id)).toBeUndefined();
      expect(await store.loadSession(id)).toBeUndefined();
    }
    expect((await store.listSessions()).sessions).toEqual([]);
  });

  it("refuses a value the browser cannot copy, as unstorable, and keeps nothing of that write", async () => {
    const { store } = await setup();
    const [root] = chainEntries([system], null);
    if (!root) throw new Error("no root");
    await store.createSession(meta("a"), [root]);
    const before = await store.getMeta("a");
    const bad = { ...createUserMessage("x", 1), details: () => undefined } as unknown as AgentMessage;
    await expect(store.write("a", { append: chainEntries([bad], root.id) })).rejects.toMatchObject({
      kind: "unstorable",
    });
    expect(await store.getMeta("a")).toEqual(before);
  });

  it("deletes everything of a session and keeps the streaming reply until it is cleared", async () => {
    const { store } = await setup();
    await store.createSession(meta("a"), chainEntries([system], null));
    await store.createSession(meta("b"), chainEntries([system], null));
    await store.saveInflight("a", createUserMessage("partial", 1), "tab-1");
    expect(await store.readInflight("a")).toMatchObject({
      tabId: "tab-1",
      message: createUserMessage("partial", 1),
    });
    await store.clearInflight("a");
    expect(await store.readInflight("a")).toBeUndefined();
    await store.saveInflight("a", createUserMessage("partial", 1));
    await store.deleteSession("a");
    expect(await store.loadSession("a")).toBeUndefined();
    expect(await store.readInflight("a")).toBeUndefined();
    expect(await store.loadSession("b")).toBeDefined();
  });

  it("says which session is missing when writing to one that is gone", async () => {
    const { store } = await setup();
    await expect(store.write("gone", { append: chainEntries([system], null) })).rejects.toMatchObject({
      message: expect.stringContaining("gone"),
    });
  });

  it("records model calls in order, summaries apart from bodies, and deletes them with the session", async () => {
    const { store } = await setup();
    await store.createSession(meta("a"), chainEntries([system], null));
    const first = await store.appendCall("a", call("c1", 3));
    const second = await store.appendCall("a", call("c2", 5));
    expect([first.call.seq, second.call.seq]).toEqual([0, 1]);
    expect(second.meta.nextCallSeq).toBe(2);
    expect(second.meta.callBytes).toBe(2 * 40);
    // Recording a call is not a change of the transcript: other tabs' revision comparison ignores it.
    expect(second.meta.revision).toBe(1);
    const { calls } = await store.listCalls("a");
    expect(calls.map((recorded) => [recorded.id, recorded.messageCount])).toEqual([
      ["c1", 3],
      ["c2", 5],
    ]);
    expect(calls[0]).not.toHaveProperty("messages");
    expect(await store.readCallBody("a", 1)).toMatchObject({
      seq: 1,
      sources: ["e1"],
      messages: { kept: "all" },
    });
    await store.deleteSession("a");
    expect((await store.listCalls("a")).calls).toEqual([]);
    expect(await store.readCallBody("a", 0)).toBeUndefined();
  });

  it("takes a recorded call's end as the session's last activity, not the time its record was stored", async () => {
    const { store } = await setup();
    await store.createSession(meta("a", 1_000), chainEntries([system], null));
    const startedAt = Date.now() - 180_000;
    const ended = await store.appendCall("a", callAt("c1", startedAt, 5));
    expect(ended.meta.updatedAt).toBe(startedAt + 5);
    // An older call (an import's) does not move the session back in time…
    const older = await store.appendCall("a", callAt("c2", 2_000, 5));
    expect(older.meta.updatedAt).toBe(startedAt + 5);
    // …and one said to end in the future (a hostile file) counts as now, not as a time to come.
    const before = Date.now();
    const future = await store.appendCall("a", callAt("c3", before + 3_600_000, 5));
    expect(future.meta.updatedAt).toBeGreaterThanOrEqual(before);
    expect(future.meta.updatedAt).toBeLessThanOrEqual(Date.now());
    const broken = await store.appendCall("a", callAt("c4", Number.NaN, 5));
    expect(Number.isFinite(broken.meta.updatedAt)).toBe(true);
    expect((await store.listSessions()).sessions[0]?.updatedAt).toBe(broken.meta.updatedAt);
  });

  it("tells a session's latest calls and how many there are before all its calls, from the same read", async () => {
    const { store } = await setup();
    await store.createSession(meta("a"), chainEntries([system], null));
    await store.createSession(meta("b"), chainEntries([system], null));
    for (let index = 0; index < 5; index++) await store.appendCall("a", call(`a${index}`, index));
    await store.appendCall("b", call("b0", 1));
    const told: { ids: string[]; total: number; before: boolean }[] = [];
    let returned = false;
    const { calls } = await store.listCalls("a", {
      from: 3,
      onRead: (latest) =>
        told.push({
          ids: latest.calls.map((recorded) => recorded.id),
          total: latest.total,
          before: !returned,
        }),
    });
    returned = true;
    expect(told).toEqual([{ ids: ["a3", "a4"], total: 5, before: true }]);
    expect(calls.map((recorded) => recorded.id)).toEqual(["a0", "a1", "a2", "a3", "a4"]);

    const none: unknown[] = [];
    await store.createSession(meta("empty"), chainEntries([system], null));
    expect(
      (await store.listCalls("empty", { from: -48, onRead: (latest) => none.push(latest) })).calls,
    ).toEqual([]);
    // Nothing before the latest calls: all of them come at once.
    await store.appendCall("empty", call("e0", 1));
    expect(
      (await store.listCalls("empty", { from: -49, onRead: (latest) => none.push(latest) })).calls,
    ).toHaveLength(1);
    expect(none).toEqual([]);
  });
});

function callAt(id: string, startedAt: number, durationMs: number): NewCall {
  const recorded = call(id, 1);
  return { ...recorded, summary: { ...recorded.summary, startedAt, timing: { durationMs } } };
}

function call(id: string, messageCount: number): NewCall {
  const usage = {
    input: 1,
    output: 1,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 2,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  return {
    summary: {
      id,
      startedAt: 1,
      provider: "mirror",
      modelId: "mirror",
      api: "mirror",
      options: { reasoning: "low" },
      messageCount,
      leafId: null,
      outcome: { stopReason: "stop", usage },
      timing: { durationMs: 5 },
      capture: { messages: "all", payload: "none" },
    },
    body: {
      messages: { kept: "all", value: [createUserMessage("hi", 1)], bytes: 40 },
      sources: ["e1"],
      payload: { kept: "none", bytes: 0, reason: "not captured" },
    },
  };
}
