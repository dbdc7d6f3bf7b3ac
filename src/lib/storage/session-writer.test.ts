import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it, vi } from "vitest";
import { createUserMessage } from "../messages/factories.ts";
import { MemorySessionStore } from "./memory-store.ts";
import { defaultSettings, SCHEMA_VERSION } from "./records.ts";
import { StorageError } from "./session-store.ts";
import { SessionWriter, type WriterStatus } from "./session-writer.ts";

async function setup() {
  const store = new MemorySessionStore();
  const system: AgentMessage = { role: "system", content: "p", timestamp: 0 };
  await store.createSession(
    {
      schema: SCHEMA_VERSION,
      id: "s",
      title: "t",
      titleIsCustom: true,
      createdAt: 0,
      updatedAt: 0,
      messageCount: 0,
      nextSeq: 0,
      settings: defaultSettings(),
    },
    [system],
  );
  let facts: AgentMessage[] = [system];
  const statuses: WriterStatus[] = [];
  const written: { appended: number[]; replaced: number[] }[] = [];
  const writer = new SessionWriter(store, "s", [0], {
    facts: () => facts,
    onStatus: (status) => statuses.push(status),
    onWritten: (change) => written.push(change),
  });
  return {
    store,
    writer,
    statuses,
    written,
    get facts() {
      return facts;
    },
    set facts(next) {
      facts = next;
    },
  };
}

describe("SessionWriter", () => {
  it("appends new facts in order and reports what it wrote", async () => {
    const ctx = await setup();
    ctx.facts = [...ctx.facts, createUserMessage("a", 1), createUserMessage("b", 2)];
    await ctx.writer.flush();
    expect((await ctx.store.loadSession("s"))?.facts.map((fact) => fact.timestamp)).toEqual([0, 1, 2]);
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
      ctx.facts = [...ctx.facts, createUserMessage("precious", 1)];
      await ctx.writer.flush();
      expect(ctx.statuses.at(-1)).toMatchObject({ unsaved: 1, error: { kind: "quota" } });
      expect((await ctx.store.loadSession("s"))?.facts).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(append).toHaveBeenCalledTimes(2);
      expect((await ctx.store.loadSession("s"))?.facts.at(-1)).toEqual(createUserMessage("precious", 1));
      expect(ctx.statuses.at(-1)).toEqual({ unsaved: 0, error: undefined });
    } finally {
      vi.useRealTimers();
    }
  });

  it("stores a changed fact in place", async () => {
    const ctx = await setup();
    ctx.facts = [...ctx.facts, createUserMessage("draft", 1)];
    await ctx.writer.flush();
    ctx.facts = [ctx.facts[0] as AgentMessage, createUserMessage("final", 1)];
    ctx.writer.markChanged(1);
    await ctx.writer.flush();
    expect((await ctx.store.loadSession("s"))?.facts[1]).toEqual(createUserMessage("final", 1));
    expect(ctx.written.at(-1)).toEqual({ appended: [], replaced: [1] });
  });
});
