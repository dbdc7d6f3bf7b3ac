import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { describe, expect, it, vi } from "vitest";
import { ChatSession } from "./chat-session.svelte.ts";
import { CANCELLED_BEFORE_SENDING } from "./call-gate.svelte.ts";
import { CallPreferences } from "./call-preferences.svelte.ts";
import { MemoryKeyValueStore } from "../storage/kv.ts";
import {
  noticeOf,
  quotaFull,
  roles,
  stored,
  storedFacts,
  text,
  usage,
  useFakeProxy,
  world,
} from "./chat-session.test-support.ts";

const proxy = useFakeProxy();

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
    const append = vi.spyOn(store, "write").mockRejectedValue(quotaFull());
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
    const tabB = tab("b");
    const b = await ChatSession.open(tabB, a.id);
    if (!b) throw new Error("b did not open");

    const append = vi.spyOn(store, "write").mockRejectedValue(quotaFull());
    await a.send("from a");
    expect(a.unsaved).toBe(true);
    await b.send("from b");
    expect(noticeOf(tabB, b)).toMatch(/another tab/);
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
    const facts = await storedFacts(store, session.id);
    expect(facts[1]).toMatchObject({
      role: "approval_request",
      status: "approved",
      decidedAt: expect.any(Number),
    });
  });

  it("builds every request from the transcript, so an approval decided mid-run reaches the very next request", async () => {
    const { tab } = world();
    const session = await ChatSession.create(tab("a"));
    await session.setToolApproval("calculate", true);
    await session.setPolicy("approval_request", "userText");
    proxy.scripted = [
      [
        { type: "start" },
        { type: "toolcall_start", contentIndex: 0, id: "call-1", toolName: "calculate" },
        { type: "toolcall_delta", contentIndex: 0, delta: '{"expression":"1+1"}' },
        {
          type: "toolcall_end",
          contentIndex: 0,
          toolCall: { type: "toolCall", id: "call-1", name: "calculate", arguments: { expression: "1+1" } },
        },
        { type: "done", reason: "toolUse", usage },
      ],
    ];
    const run = session.send("add");
    await vi.waitFor(() => expect(session.facts.some((fact) => fact.role === "approval_request")).toBe(true));
    await session.decide(
      session.facts.findIndex((fact) => fact.role === "approval_request"),
      "approved",
    );
    await run;
    expect(proxy.requests).toHaveLength(2);
    expect(proxy.requests[1]?.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "toolResult",
      "user",
    ]);
    expect(proxy.requests[1]?.[4]?.text).toMatch(/^\[Approval request\] Run calculate .*: approved$/);
    expect(roles(session.facts)).toEqual([
      "system",
      "user:add",
      "assistant:",
      "approval_request",
      "toolResult",
      "assistant:reply 2",
    ]);
  });

  it("never changes a fact in place once it is stored, so a request may reuse the JSON of the messages it sent before", async () => {
    const { tab } = world();
    const session = await ChatSession.create(tab("a"));
    await session.setToolApproval("calculate", true);
    await session.setPolicy("approval_request", "userText");
    // Each fact object as it was when first seen, compared with the same object after the turns below.
    const firstSeen = new Map<object, string>();
    const look = () => {
      for (const fact of session.facts) if (!firstSeen.has(fact)) firstSeen.set(fact, JSON.stringify(fact));
    };
    proxy.scripted = [
      [
        { type: "start" },
        { type: "text_start", contentIndex: 0 },
        { type: "text_delta", contentIndex: 0, delta: "let me add" },
        { type: "text_end", contentIndex: 0 },
        { type: "toolcall_start", contentIndex: 1, id: "call-1", toolName: "calculate" },
        { type: "toolcall_delta", contentIndex: 1, delta: '{"expression":"1+1"}' },
        {
          type: "toolcall_end",
          contentIndex: 1,
          toolCall: { type: "toolCall", id: "call-1", name: "calculate", arguments: { expression: "1+1" } },
        },
        { type: "done", reason: "toolUse", usage },
      ],
    ];
    const run = session.send("add");
    await vi.waitFor(() => {
      look();
      expect(session.facts.some((fact) => fact.role === "approval_request")).toBe(true);
    });
    look();
    await session.decide(
      session.facts.findIndex((fact) => fact.role === "approval_request"),
      "approved",
    );
    look();
    await run;
    look();
    await session.send("again");
    look();
    await session.inject({ role: "notification", text: "a note", timestamp: 1 }, "append");
    await session.send("and again");
    look();
    expect(firstSeen.size).toBeGreaterThan(roles(session.facts).length);
    for (const [fact, json] of firstSeen) expect(JSON.stringify(fact)).toBe(json);
  });

  it("catches up with another tab's run by revision, decisions included, and reads nothing when nothing changed", async () => {
    const { store, tab } = world();
    const a = await ChatSession.create(tab("a"));
    const b = await ChatSession.open(tab("b"), a.id);
    if (!b) throw new Error("b did not open");
    await a.inject({ role: "approval_request", action: "Deploy", status: "pending", timestamp: 1 }, "append");
    await a.send("hello");
    await a.decide(1, "rejected", "not today");
    await a.saveNow();
    const since = vi.spyOn(store, "changesSince");
    await b.applyRemoteWrite();
    expect(roles(b.facts)).toEqual(roles(a.facts));
    expect(b.facts[1]).toMatchObject({ status: "rejected", reason: "not today" });
    const read = await since.mock.results.at(-1)?.value;
    expect(read?.records.length).toBeGreaterThan(0);
    // Nothing new: the announcement's revision is already known, so nothing is read at all.
    since.mockClear();
    await b.applyRemoteWrite(a.meta);
    expect(since).not.toHaveBeenCalled();
  });

  it("records every model call where it is made: the messages exactly as sent, their facts, outcome and timing", async () => {
    const { store, tab } = world();
    const session = await ChatSession.create(tab("a"));
    await session.inject({ role: "notification", text: "hidden from the model", timestamp: 1 }, "append");
    await session.send("first");
    await session.send("second");
    await vi.waitFor(async () => expect((await store.listCalls(session.id)).calls).toHaveLength(2));
    await session.calls.load();
    const [first, second] = session.calls.calls;
    expect(first).toMatchObject({
      provider: "mirror",
      modelId: "mirror",
      messageCount: 2,
      outcome: { stopReason: "stop", usage: { input: 1, output: 1 } },
      replyEntryId: expect.any(String),
      capture: { messages: "all" },
    });
    expect(first?.timing.durationMs).toBeGreaterThanOrEqual(0);
    expect(first?.timing.firstTokenMs).toBeGreaterThanOrEqual(0);
    const body = await session.calls.body(second?.seq ?? -1);
    if (body?.messages.kept !== "all") throw new Error("the messages were not kept");
    // Exactly what the proxy received, traced to the facts that produced each message.
    expect(body.messages.value.map((message) => ({ role: message.role, text: text(message) }))).toEqual(
      proxy.requests[1],
    );
    expect(body.sources).toHaveLength(4);
    expect(body.sources.every((source) => typeof source === "string")).toBe(true);
    // The reply of the first call is the fact whose entry the first call names.
    expect(session.calls.forReply(first?.replyEntryId ?? "")).toBe(first);
    const replyIndex = session.facts.findIndex((fact) => fact.role === "assistant");
    expect(body.sources[2]).toBe(first?.replyEntryId);
    expect(replyIndex).toBe(3);
  });

  it("stops a run asked to stop while it is still starting: the reply is aborted, not finished", async () => {
    const { tab } = world();
    const session = await ChatSession.create(tab("a"));
    // Stop at once, as Escape right after Enter does: the run is waiting for its lock and the Agent has
    // no run of its own to abort yet.
    const run = session.send("hello");
    expect(session.running).toBe(true);
    session.stop();
    await run;
    expect(session.running).toBe(false);
    expect(roles(session.facts).slice(0, 2)).toEqual(["system", "user:hello"]);
    expect(session.facts.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    // A later run is not stopped by it.
    await session.send("again");
    expect(session.facts.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  });

  it("retries as pi does: the failed reply stays among the facts, out of the next request, by a context edit", async () => {
    const { store, tab } = world();
    const session = await ChatSession.create(tab("a"));
    proxy.scripted = [
      [{ type: "start" }, { type: "error", reason: "error", errorMessage: "overloaded", usage }],
    ];
    await session.send("hello");
    expect(session.facts.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
    await session.retry();
    expect(proxy.requests).toHaveLength(2);
    // The second request is the first one again: the failed reply is not in it.
    expect(proxy.requests[1]).toEqual(proxy.requests[0]);
    expect(roles(session.facts)).toEqual(["system", "user:hello", "assistant:", "assistant:reply 2"]);
    expect(session.modelView.fates).toEqual(["sent", "sent", "failedAttempt", "sent"]);
    await session.saveNow();
    const loaded = await store.loadSession(session.id);
    const edit = loaded?.records.find((record) => record.entry.type === "context_edit")?.entry;
    expect(edit).toMatchObject({ type: "context_edit", replacement: null });
  });
});

describe("pausing before each model call", () => {
  const zero = { ...usage, input: 0, output: 0, totalTokens: 0 };

  async function pausedSession() {
    const preferences = new CallPreferences(() => new MemoryKeyValueStore());
    preferences.setPauseBeforeCalls(true);
    const session = await ChatSession.create({ ...world().tab("a"), preferences });
    return { session, preferences };
  }

  /** Wait until a call is held, and check that nothing was sent for it. */
  async function heldAfter(session: ChatSession, sent: number): Promise<void> {
    await vi.waitFor(() => expect(session.callGate.held).toBe(true));
    expect(proxy.requests).toHaveLength(sent);
  }

  it("leaves another tab's write announced during its run for the run's end, then reads it under the lock", async () => {
    const preferences = new CallPreferences(() => new MemoryKeyValueStore());
    preferences.setPauseBeforeCalls(true);
    const { store, tab } = world();
    const session = await ChatSession.create({ ...tab("a"), preferences });
    await session.saveNow();
    const since = vi.spyOn(store, "changesSince");
    const run = session.send("hello");
    await heldAfter(session, 0);
    since.mockClear();
    // An announcement of a newer revision arrives while the run owns the transcript: nothing is read yet.
    await session.applyRemoteWrite({ ...session.meta, revision: session.meta.revision + 100 });
    expect(since).not.toHaveBeenCalled();
    session.callGate.continue();
    await run;
    // The run's end reads what was announced (its own catch-up at the start was before the clear).
    expect(since).toHaveBeenCalledTimes(1);
    // Once idle, an announcement is read at once.
    since.mockClear();
    await session.applyRemoteWrite({ ...session.meta, revision: session.meta.revision + 100 });
    expect(since).toHaveBeenCalledTimes(1);
  });

  it("holds every call until Continue; nothing is sent while it waits", async () => {
    const { session } = await pausedSession();
    const run = session.send("hello");
    await heldAfter(session, 0);
    expect(session.running).toBe(true);
    session.callGate.continue();
    await run;
    expect(proxy.requests).toHaveLength(1);
    expect(session.callGate.held).toBe(false);
    expect(roles(session.facts)).toEqual(["system", "user:hello", "assistant:reply 1"]);
  });

  it("puts a steer made during the hold into the held call, one per call as the Agent delivers them; a follow-up waits for the stop", async () => {
    const { session } = await pausedSession();
    const run = session.send("hello");
    await heldAfter(session, 0);
    await session.steer("first steer");
    await session.steer("second steer");
    await session.followUp("a follow-up");
    session.callGate.continue();
    // The next call (for the second steer, queued one at a time) is held in turn.
    await heldAfter(session, 1);
    expect(proxy.requests[0]?.map((message) => message.text)).toEqual(["", "hello", "first steer"]);
    session.callGate.continue();
    await heldAfter(session, 2);
    expect(proxy.requests[1]?.map((message) => message.text).slice(1)).toEqual([
      "hello",
      "first steer",
      "reply 1",
      "second steer",
    ]);
    session.callGate.continue();
    await run;
    expect(proxy.requests[2]?.map((message) => message.text).slice(-2)).toEqual(["reply 2", "a follow-up"]);
    expect(session.queues.steering).toEqual([]);
    expect(session.queues.followUps).toEqual([]);
    expect(roles(session.facts)).toEqual([
      "system",
      "user:hello",
      "user:first steer",
      "assistant:reply 1",
      "user:second steer",
      "assistant:reply 2",
      "user:a follow-up",
      "assistant:reply 3",
    ]);
  });

  it("Cancel ends the run cleanly without sending the held call", async () => {
    const { session } = await pausedSession();
    const run = session.send("hello");
    await heldAfter(session, 0);
    session.stop();
    await run;
    expect(proxy.requests).toHaveLength(0);
    expect(session.running).toBe(false);
    expect(session.callGate.held).toBe(false);
    expect(session.facts.at(-1)).toMatchObject({
      role: "assistant",
      stopReason: "aborted",
      errorMessage: CANCELLED_BEFORE_SENDING,
    });
    // Nothing was called, so nothing is recorded as a call.
    await session.calls.load();
    expect(session.calls.calls).toEqual([]);
  });

  it("does not hold once pausing is off, and never holds a call that was already on its way", async () => {
    const { session, preferences } = await pausedSession();
    preferences.setPauseBeforeCalls(false);
    await session.send("hello");
    expect(proxy.requests).toHaveLength(1);
    expect(session.callGate.holds).toBe(0);
  });

  it("records what streamed of a reply that stopped before the provider reported usage, as an estimate", async () => {
    const { store, tab } = world();
    const session = await ChatSession.create(tab("a"));
    const streamed = "Forty characters that streamed already.";
    proxy.scripted = [
      [
        { type: "start" },
        { type: "text_start", contentIndex: 0 },
        { type: "text_delta", contentIndex: 0, delta: streamed },
        { type: "error", reason: "aborted", errorMessage: "Request was aborted", usage: zero },
      ],
    ];
    await session.send("hello");
    await vi.waitFor(async () => expect((await store.listCalls(session.id)).calls).toHaveLength(1));
    await session.calls.load();
    expect(session.calls.calls[0]?.outcome).toMatchObject({
      stopReason: "aborted",
      usage: { output: 0 },
      outputEstimate: estimateTextTokens(streamed),
    });
    expect(session.usage).toMatchObject({ output: estimateTextTokens(streamed), outputEstimated: true });
  });
});
