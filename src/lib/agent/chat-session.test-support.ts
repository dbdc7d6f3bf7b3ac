import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { afterEach, beforeEach, vi } from "vitest";
import { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { FakeLocks } from "../storage/fake-locks.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { StorageError } from "../storage/session-store.ts";
import { SessionLocks, TabChannel } from "../storage/tab-sync.ts";
import type { ChatSession } from "./chat-session.svelte.ts";
import type { SessionDeps } from "./session-deps.ts";
import { pathTo } from "../messages/entries.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { Notices } from "../notices/notices.svelte.ts";
import type { StreamRouter } from "./stream-route.ts";

/**
 * The session runtime with its real Agent, storage and locks, in memory: the proxy answers every
 * request with a short streamed reply, and "tabs" are sessions sharing one store and one lock manager.
 * Call `useFakeProxy()` at the top of a test file.
 */

function sse(events: unknown[]): Response {
  const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

export const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export interface FakeProxy {
  /** The `context.messages` of every request the proxy received, in order. */
  requests: { role: string; text: string }[][];
  /** The body of every `/api/stream` request, as sent. */
  bodies: string[];
  /** Replies the proxy gives before falling back to text: a queue of event lists. */
  scripted: unknown[][];
  /** Held replies: while set, each request waits for this promise before answering. */
  gate: Promise<void> | undefined;
}

/** Stub `fetch` with the proxy for every test of the file; "reply N" answers the Nth request. */
export function useFakeProxy(): FakeProxy {
  const proxy: FakeProxy = { requests: [], bodies: [], scripted: [], gate: undefined };
  let replies = 0;
  beforeEach(() => {
    replies = 0;
    proxy.requests = [];
    proxy.bodies = [];
    proxy.scripted = [];
    proxy.gate = undefined;
    vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("/api/session")) return Response.json({ token: "t", maxBodyBytes: 1_000_000 });
      // The stream function sends its body as a Blob (request-body.ts); read as the proxy reads it.
      const sent = await new Response(init?.body).text();
      proxy.bodies.push(sent);
      const body = JSON.parse(sent) as { context: { messages: AgentMessage[] } };
      proxy.requests.push(
        body.context.messages.map((message) => ({ role: message.role, text: text(message) })),
      );
      replies++;
      const reply = replies;
      if (proxy.gate) await proxy.gate;
      const next = proxy.scripted.shift();
      if (next) return sse(next);
      return sse([
        { type: "start" },
        { type: "text_start", contentIndex: 0 },
        { type: "text_delta", contentIndex: 0, delta: `reply ${reply}` },
        { type: "text_end", contentIndex: 0 },
        { type: "done", reason: "stop", usage },
      ]);
    });
  });
  afterEach(() => vi.unstubAllGlobals());
  return proxy;
}

/** Every request goes to the (stubbed) proxy with its token. */
const router: StreamRouter = {
  route: async () => ({ proxyUrl: "http://proxy.test", authToken: "t", settled: () => undefined }),
};

let channelCount = 0;

export function world() {
  const store = new MemorySessionStore();
  const locks = new FakeLocks();
  const channelName = `test-${process.pid}-${channelCount++}`;
  const tab = (tabId: string): SessionDeps => ({
    store,
    catalog: new ModelCatalog(),
    router,
    channel: new TabChannel(channelName),
    locks: new SessionLocks(locks.asLockManager()),
    notices: new Notices(),
    tabId,
  });
  return { store, locks, tab };
}

export const roles = (facts: readonly AgentMessage[]) =>
  facts.map((fact) =>
    fact.role === "user" || fact.role === "assistant" ? `${fact.role}:${text(fact)}` : fact.role,
  );

export function text(fact: AgentMessage): string {
  if (fact.role !== "user" && fact.role !== "assistant") return "";
  const content = fact.content;
  return typeof content === "string"
    ? content
    : content.map((part) => ("text" in part ? part.text : "")).join("");
}

export async function storedFacts(store: MemorySessionStore, id: string): Promise<readonly AgentMessage[]> {
  const loaded = await store.loadSession(id);
  if (!loaded) return [];
  return projectSession(
    pathTo(
      loaded.records.map((record) => record.entry),
      loaded.meta.leafId,
    ),
  ).facts;
}

export async function stored(store: MemorySessionStore, id: string) {
  return roles(await storedFacts(store, id));
}

/** The session's notice in the shared notices, if any (what the person reads next to the chat). */
export function noticeOf(deps: SessionDeps, session: ChatSession): string | undefined {
  return deps.notices.find(`run:${session.id}`)?.text;
}

export const quotaFull = () => new StorageError("quota", "full");
