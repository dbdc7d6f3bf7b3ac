import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it, vi } from "vitest";
import { messageOf, chainEntries, type MessageEntry } from "../messages/entries.ts";
import { createApprovalRequest, createUserMessage } from "../messages/factories.ts";
import { MemorySessionStore } from "./memory-store.ts";
import { SCHEMA_VERSION, type SessionMeta } from "./records.ts";
import { SessionWriter, type WriterStatus } from "./session-writer.ts";

const system: AgentMessage = { role: "system", content: "p", timestamp: 0 };

function meta(): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id: "s",
    title: "t",
    titleIsCustom: true,
    createdAt: 0,
    updatedAt: 0,
    messageCount: 0,
    nextSeq: 0,
    revision: 0,
    leafId: null,
    settings: {},
  };
}

function quota(): DOMException {
  return new DOMException("The quota has been exceeded.", "QuotaExceededError");
}

async function setup({ created = true } = {}) {
  let failNext: Error | undefined;
  const store = new MemorySessionStore({
    beforeCommit: () => {
      const failure = failNext;
      failNext = undefined;
      if (failure) throw failure;
    },
  });
  const [root] = chainEntries([system], null);
  if (!root) throw new Error("no root");
  const createdWith = created ? await store.createSession(meta(), [root]) : undefined;
  let leaf: string | null = root.id;
  const statuses: WriterStatus[] = [];
  const written: number[][] = [];
  let lockFree = true;
  const writer = new SessionWriter(
    store,
    "s",
    { records: createdWith?.records ?? [], meta: createdWith?.meta },
    {
      onStatus: (status) => statuses.push(status),
      onWritten: (result) => written.push(result.records.map((record) => record.seq)),
      exclusive: async (write) => {
        if (!lockFree) return false;
        await write();
        return true;
      },
      meta,
      leaf: () => leaf,
    },
  );
  /** Make entries the way the transcript does: chained from the leaf, which moves to the last. */
  const add = (...messages: AgentMessage[]): MessageEntry[] => {
    const entries = chainEntries(messages, leaf);
    leaf = entries.at(-1)?.id ?? leaf;
    writer.append(entries);
    return entries;
  };
  const stored = async () =>
    (await store.loadSession("s"))?.records.map((record) => messageOf(record.entry)) ?? [];
  return {
    store,
    writer,
    root,
    add,
    statuses,
    written,
    stored,
    failNextWrite: (error: Error = quota()) => (failNext = error),
    setLockFree: (free: boolean) => (lockFree = free),
    moveLeaf: (id: string) => (leaf = id),
  };
}

describe("SessionWriter", () => {
  it("appends new entries in order and reports what it wrote", async () => {
    const ctx = await setup();
    ctx.add(createUserMessage("one", 1), createUserMessage("two", 2));
    await ctx.writer.flush();
    expect(await ctx.stored()).toEqual([system, createUserMessage("one", 1), createUserMessage("two", 2)]);
    expect(ctx.written).toEqual([[1, 2]]);
    expect(ctx.writer.pending).toBe(false);
    expect(ctx.writer.revision).toBe(2);
  });

  it("keeps entries that a full disk refused, says how many, and stores them on the next flush", async () => {
    const ctx = await setup();
    ctx.failNextWrite();
    ctx.add(createUserMessage("kept", 1));
    await ctx.writer.flush();
    expect(ctx.statuses.at(-1)).toMatchObject({ unsaved: 1, error: { kind: "quota" } });
    expect(await ctx.stored()).toEqual([system]);
    ctx.add(createUserMessage("more", 2));
    await ctx.writer.flush();
    expect(await ctx.stored()).toEqual([system, createUserMessage("kept", 1), createUserMessage("more", 2)]);
    expect(ctx.statuses.at(-1)).toEqual({ unsaved: 0, error: undefined });
  });

  it("stores a new version of a stored entry in place", async () => {
    const ctx = await setup();
    const [request] = ctx.add(createApprovalRequest({ action: "deploy" }, 1));
    await ctx.writer.flush();
    if (!request) throw new Error("no entry");
    ctx.writer.replace({ ...request, message: { ...request.message, status: "approved" } as AgentMessage });
    await ctx.writer.flush();
    const loaded = await ctx.store.loadSession("s");
    expect(loaded?.records.map((record) => record.seq)).toEqual([0, 1]);
    expect(messageOf(loaded?.records[1]?.entry)).toMatchObject({ status: "approved" });
    expect(ctx.written).toEqual([[1], [1]]);
  });

  it("writes a change to an entry that is not stored yet as part of its first write", async () => {
    const ctx = await setup();
    const [request] = ctx.add(createApprovalRequest({ action: "deploy" }, 1));
    if (!request) throw new Error("no entry");
    ctx.writer.replace({ ...request, message: { ...request.message, status: "rejected" } as AgentMessage });
    await ctx.writer.flush();
    expect(ctx.written).toEqual([[1]]);
    expect((await ctx.stored())[1]).toMatchObject({ status: "rejected" });
  });

  it("stores a change made while the entry's first write was still running", async () => {
    const ctx = await setup();
    const [request] = ctx.add(createApprovalRequest({ action: "deploy" }, 1));
    if (!request) throw new Error("no entry");
    const first = ctx.writer.flush();
    ctx.writer.replace({ ...request, message: { ...request.message, status: "approved" } as AgentMessage });
    await first;
    await ctx.writer.flush();
    expect((await ctx.stored())[1]).toMatchObject({ status: "approved" });
    expect(ctx.writer.pending).toBe(false);
  });

  it("creates the session record when creating it failed at first", async () => {
    const ctx = await setup({ created: false });
    ctx.writer.append([ctx.root]);
    ctx.add(createUserMessage("first", 1));
    await ctx.writer.flush();
    expect(await ctx.stored()).toEqual([system, createUserMessage("first", 1)]);
  });

  it("waits, and retries, while another tab holds the session", async () => {
    vi.useFakeTimers();
    try {
      const ctx = await setup();
      ctx.setLockFree(false);
      ctx.add(createUserMessage("later", 1));
      await ctx.writer.flush();
      expect(await ctx.stored()).toHaveLength(1);
      ctx.setLockFree(true);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await ctx.stored()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("retries a write that a full disk refused by itself, after a pause", async () => {
    vi.useFakeTimers();
    try {
      const ctx = await setup();
      ctx.failNextWrite();
      ctx.add(createUserMessage("kept", 1));
      await vi.advanceTimersByTimeAsync(0);
      expect(ctx.statuses.at(-1)).toMatchObject({ unsaved: 1, error: { kind: "quota" } });
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await ctx.stored()).toEqual([system, createUserMessage("kept", 1)]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not retry a value the browser cannot copy, and keeps it in memory", async () => {
    vi.useFakeTimers();
    try {
      const ctx = await setup();
      ctx.failNextWrite(new DOMException("could not be cloned", "DataCloneError"));
      ctx.add(createUserMessage("odd", 1));
      // No explicit flush: only what the writer schedules by itself runs.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(ctx.statuses.at(-1)).toMatchObject({ unsaved: 1, error: { kind: "unstorable" } });
      expect(await ctx.stored()).toEqual([system]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stores a leaf that moved without new entries", async () => {
    const ctx = await setup();
    ctx.add(createUserMessage("one", 1));
    await ctx.writer.flush();
    ctx.moveLeaf(ctx.root.id);
    expect(ctx.writer.pending).toBe(true);
    ctx.writer.leafMoved();
    await ctx.writer.flush();
    expect((await ctx.store.getMeta("s"))?.leafId).toBe(ctx.root.id);
    expect(ctx.writer.pending).toBe(false);
  });

  it("stores a new message without indexing the records the session was opened with", async () => {
    const store = new MemorySessionStore();
    const opened = chainEntries([system, createApprovalRequest({ action: "deploy" }, 1)], null);
    const created = await store.createSession(meta(), opened);
    let indexReads = 0;
    // Each opened record counts the reads of its entry: an index of the session reads every one.
    const records = created.records.map((record) => ({
      ...record,
      get entry() {
        indexReads++;
        return record.entry;
      },
    }));
    let leaf: string | null = opened.at(-1)?.id ?? null;
    const writer = new SessionWriter(
      store,
      "s",
      { records, meta: created.meta },
      {
        onStatus: () => undefined,
        onWritten: () => undefined,
        exclusive: async (write) => (await write(), true),
        meta,
        leaf: () => leaf,
      },
    );
    const added = chainEntries([createUserMessage("new", 2)], leaf);
    leaf = added.at(-1)?.id ?? leaf;
    writer.append(added);
    await writer.flush();
    expect(indexReads).toBe(0);
    expect(writer.isStored(added[0]?.id ?? "")).toBe(true);
    expect(indexReads).toBe(0);

    // Replacing an opened entry needs its sequence number: the index is made then, and the entry stored in place.
    const request = opened[1] as MessageEntry;
    writer.replace({ ...request, message: { ...request.message, status: "approved" } as AgentMessage });
    await writer.flush();
    expect(indexReads).toBeGreaterThan(0);
    const loaded = await store.loadSession("s");
    expect(loaded?.records.map((record) => record.seq)).toEqual([0, 1, 2]);
    expect(messageOf(loaded?.records[1]?.entry)).toMatchObject({ status: "approved" });
  });
});
