import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it, vi } from "vitest";
import { createApprovalRequest, createUserMessage } from "../messages/factories.ts";
import { MemorySessionStore } from "./memory-store.ts";
import { defaultSettings, SCHEMA_VERSION, type SessionMeta } from "./records.ts";
import { StorageError } from "./session-store.ts";
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
    settings: defaultSettings(),
  };
}

async function setup({ created = true } = {}) {
  const store = new MemorySessionStore();
  if (created) await store.createSession(meta(), [system]);
  const state = { facts: [system] as AgentMessage[] };
  const statuses: WriterStatus[] = [];
  const written: { appended: number[]; replaced: number[] }[] = [];
  let lockFree = true;
  const writer = new SessionWriter(
    store,
    "s",
    { seqs: created ? [0] : [], created },
    {
      facts: () => state.facts,
      onStatus: (status) => statuses.push(status),
      onWritten: (change) => written.push(change),
      exclusive: async (write) => {
        if (!lockFree) return false;
        await write();
        return true;
      },
      meta,
    },
  );
  const stored = async () => (await store.loadSession("s"))?.facts ?? [];
  return {
    store,
    writer,
    state,
    statuses,
    written,
    stored,
    setLockFree: (free: boolean) => (lockFree = free),
  };
}

describe("SessionWriter", () => {
  it("appends new facts in order and reports what it wrote", async () => {
    const ctx = await setup();
    ctx.state.facts = [...ctx.state.facts, createUserMessage("a", 1), createUserMessage("b", 2)];
    await ctx.writer.flush();
    expect((await ctx.stored()).map((fact) => fact.timestamp)).toEqual([0, 1, 2]);
    expect(ctx.written).toEqual([{ appended: [1, 2], replaced: [] }]);
    expect(ctx.statuses.at(-1)).toEqual({ unsaved: 0, error: undefined });
  });

  it("keeps a fact that failed to store (quota) and stores it on the next flush", async () => {
    vi.useFakeTimers();
    try {
      const ctx = await setup();
      const append = vi
        .spyOn(ctx.store, "appendMessages")
        .mockRejectedValueOnce(new StorageError("quota", "full"));
      ctx.state.facts = [...ctx.state.facts, createUserMessage("precious", 1)];
      await ctx.writer.flush();
      expect(ctx.statuses.at(-1)).toMatchObject({ unsaved: 1, error: { kind: "quota" } });
      expect(ctx.writer.pending).toBe(true);
      expect(await ctx.stored()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(append).toHaveBeenCalledTimes(2);
      expect((await ctx.stored()).at(-1)).toEqual(createUserMessage("precious", 1));
      expect(ctx.statuses.at(-1)).toEqual({ unsaved: 0, error: undefined });
    } finally {
      vi.useRealTimers();
    }
  });

  it("stores a replaced fact in place, found by identity", async () => {
    const ctx = await setup();
    ctx.state.facts = [...ctx.state.facts, createUserMessage("draft", 1)];
    await ctx.writer.flush();
    ctx.state.facts = [system, createUserMessage("final", 1)];
    await ctx.writer.flush();
    expect((await ctx.stored())[1]).toEqual(createUserMessage("final", 1));
    expect(ctx.written.at(-1)).toEqual({ appended: [], replaced: [1] });
  });

  it("stores a fact changed while its first write was still running", async () => {
    const ctx = await setup();
    const pending = createApprovalRequest({ action: "Run save_note" }, 1);
    ctx.state.facts = [...ctx.state.facts, pending];
    const original = ctx.store.appendMessages.bind(ctx.store);
    vi.spyOn(ctx.store, "appendMessages").mockImplementationOnce(async (id, messages) => {
      // The decision lands while the pending request is being written.
      ctx.state.facts = [system, { ...pending, status: "rejected", decidedAt: 2 }];
      return original(id, messages);
    });
    await ctx.writer.flush();
    await ctx.writer.flush();
    expect((await ctx.stored())[1]).toMatchObject({ status: "rejected", decidedAt: 2 });
    expect(ctx.writer.pending).toBe(false);
  });

  it("creates the session record when creating it failed at first", async () => {
    const ctx = await setup({ created: false });
    ctx.state.facts = [system, createUserMessage("hello", 1)];
    await ctx.writer.flush();
    expect(await ctx.stored()).toEqual([system, createUserMessage("hello", 1)]);
    ctx.state.facts = [...ctx.state.facts, createUserMessage("more", 2)];
    await ctx.writer.flush();
    expect(await ctx.stored()).toHaveLength(3);
  });

  it("waits, and retries, while another tab holds the session", async () => {
    vi.useFakeTimers();
    try {
      const ctx = await setup();
      ctx.setLockFree(false);
      ctx.state.facts = [...ctx.state.facts, createUserMessage("later", 1)];
      await ctx.writer.flush();
      expect(await ctx.stored()).toHaveLength(1);
      ctx.setLockFree(true);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await ctx.stored()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("merges records another tab stored in sequence order, ahead of facts not stored yet", async () => {
    const ctx = await setup();
    ctx.state.facts = [...ctx.state.facts, createUserMessage("ours, stored", 1)];
    await ctx.writer.flush();
    const theirs = await ctx.store.appendMessages("s", [createUserMessage("theirs", 2)]);
    ctx.state.facts = [...ctx.state.facts, createUserMessage("ours, not stored", 3)];
    const merged = ctx.writer.merge([
      {
        schema: SCHEMA_VERSION,
        sessionId: "s",
        seq: theirs[0] as number,
        message: createUserMessage("theirs", 2),
      },
    ]);
    expect(merged?.map((fact) => fact.timestamp)).toEqual([0, 1, 2, 3]);
    ctx.state.facts = merged ?? [];
    expect(
      ctx.writer.merge([
        { schema: SCHEMA_VERSION, sessionId: "s", seq: 2, message: createUserMessage("theirs", 2) },
      ]),
    ).toBeUndefined();
    await ctx.writer.flush();
    expect((await ctx.stored()).map((fact) => fact.timestamp)).toEqual([0, 1, 2, 3]);
  });
});
