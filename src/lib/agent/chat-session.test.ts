import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { FakeLocks } from "../storage/fake-locks.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { StorageError } from "../storage/session-store.ts";
import { SessionLocks, TabChannel } from "../storage/tab-sync.ts";
import { ChatSession, type SessionDeps } from "./chat-session.svelte.ts";
import type { StreamRouter } from "./proxy-stream.ts";

/**
 * The session runtime with its real Agent, storage and locks, in memory: the proxy answers every
 * request with a short streamed reply, and "tabs" are sessions sharing one store and one lock manager.
 */

function sse(events: unknown[]): Response {
  const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
let replies = 0;

beforeEach(() => {
  replies = 0;
  vi.stubGlobal("fetch", async () => {
    replies++;
    return sse([
      { type: "start" },
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: `reply ${replies}` },
      { type: "text_end", contentIndex: 0 },
      { type: "done", reason: "stop", usage },
    ]);
  });
});

afterEach(() => vi.unstubAllGlobals());

/** Every request goes to the (stubbed) proxy with its token. */
const router: StreamRouter = {
  route: async () => ({ proxyUrl: "http://proxy.test", authToken: "t", settled: () => undefined }),
};

let channelCount = 0;

function world() {
  const store = new MemorySessionStore();
  const locks = new FakeLocks();
  const channelName = `test-${process.pid}-${channelCount++}`;
  const tab = (tabId: string): SessionDeps => ({
    store,
    catalog: new ModelCatalog(),
    router,
    channel: new TabChannel(channelName),
    locks: new SessionLocks(locks.asLockManager()),
    tabId,
  });
  return { store, locks, tab };
}

const roles = (facts: readonly AgentMessage[]) =>
  facts.map((fact) =>
    fact.role === "user" || fact.role === "assistant" ? `${fact.role}:${text(fact)}` : fact.role,
  );

function text(fact: AgentMessage): string {
  if (fact.role !== "user" && fact.role !== "assistant") return "";
  const content = fact.content;
  return typeof content === "string"
    ? content
    : content.map((part) => ("text" in part ? part.text : "")).join("");
}

async function stored(store: MemorySessionStore, id: string) {
  return roles((await store.loadSession(id))?.facts ?? []);
}

describe("ChatSession", () => {
  it("stores every fact of a turn, in order, one record each", async () => {
    const { store, tab } = world();
    const session = await ChatSession.create(tab("a"));
    await session.send("hello");
    await session.saveNow();
    expect(roles(session.facts)).toEqual(["system", "user:hello", "assistant:reply 1"]);
    expect(await stored(store, session.id)).toEqual(roles(session.facts));
  });

  it("never restores its own reply as interrupted when the reply's write failed", async () => {
    const { store, tab } = world();
    const session = await ChatSession.create(tab("a"));
    const append = vi.spyOn(store, "appendMessages").mockRejectedValue(new StorageError("quota", "full"));
    await session.send("hello");
    expect(session.storage.error?.kind).toBe("quota");
    append.mockRestore();
    await session.send("again");
    await session.saveNow();
    const expected = ["system", "user:hello", "assistant:reply 1", "user:again", "assistant:reply 2"];
    expect(roles(session.facts)).toEqual(expected);
    expect(await stored(store, session.id)).toEqual(expected);
    expect(await store.readInflight(session.id)).toBeUndefined();
  });

  it("keeps other tabs out while it has unsaved facts, so the transcript never forks", async () => {
    const { store, tab } = world();
    const a = await ChatSession.create(tab("a"));
    const b = await ChatSession.open(tab("b"), a.id);
    if (!b) throw new Error("b did not open");

    const append = vi.spyOn(store, "appendMessages").mockRejectedValue(new StorageError("quota", "full"));
    await a.send("from a");
    expect(a.unsaved).toBe(true);
    await b.send("from b");
    expect(b.notice).toMatch(/another tab/);
    expect(roles(b.facts)).toEqual(["system"]);

    append.mockRestore();
    await a.saveNow();
    await vi.waitFor(() => expect(b.runningElsewhere).toBe(false), { timeout: 3_000, interval: 50 });
    await b.send("from b");
    await b.saveNow();
    const expected = ["system", "user:from a", "assistant:reply 1", "user:from b", "assistant:reply 2"];
    expect(roles(b.facts)).toEqual(expected);
    expect(await stored(store, a.id)).toEqual(expected);
  });

  it("restores the streaming reply of a tab that is gone, once, before new work", async () => {
    const { store, tab } = world();
    const a = await ChatSession.create(tab("a"));
    await a.send("first");
    await a.saveNow();
    await store.saveInflight(
      a.id,
      {
        role: "assistant",
        content: [{ type: "text", text: "half a rep" }],
        api: "x",
        provider: "p",
        model: "m",
        usage,
        stopReason: "pending",
        timestamp: 9,
      },
      "closed-tab",
    );

    const b = await ChatSession.open(tab("b"), a.id);
    if (!b) throw new Error("b did not open");
    await vi.waitFor(() => expect(b.runningElsewhere).toBe(false), { timeout: 3_000, interval: 50 });
    await b.send("second");
    await b.saveNow();
    const restored = b.facts[3];
    expect(restored).toMatchObject({
      role: "assistant",
      stopReason: "aborted",
      errorMessage: expect.stringMatching(/^Interrupted/),
    });
    expect(roles(b.facts)).toEqual([
      "system",
      "user:first",
      "assistant:reply 1",
      "assistant:half a rep",
      "user:second",
      "assistant:reply 2",
    ]);
    expect(await store.readInflight(a.id)).toBeUndefined();
  });

  it("records an approval decided while its request is still being written", async () => {
    const { store, tab } = world();
    const session = await ChatSession.create(tab("a"));
    await session.inject(
      { role: "approval_request", action: "Deploy", status: "pending", timestamp: 1 },
      "append",
    );
    await session.decide(1, "approved");
    await session.saveNow();
    const facts = (await store.loadSession(session.id))?.facts ?? [];
    expect(facts[1]).toMatchObject({
      role: "approval_request",
      status: "approved",
      decidedAt: expect.any(Number),
    });
  });
});
