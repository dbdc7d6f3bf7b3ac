import { describe, expect, it } from "vitest";
import type { LiveConnectionSummary, LiveStatus, LiveUpdate } from "../../shared/live/live-protocol.ts";
import type { Notices } from "../notices/notices.svelte.ts";
import type { SessionStore } from "../storage/session-store.ts";
import { LiveFeed } from "./live-feed.ts";

const ask = {
  kind: "tool" as const,
  id: "call_1",
  toolName: "bash",
  args: { command: "ls" },
  askedAt: 1,
  timeoutMs: 1000,
};

function status(asks: LiveStatus["asks"]): LiveStatus {
  return {
    state: "connected",
    running: true,
    dropped: 0,
    callsDropped: 0,
    control: { allowed: true, on: true, gates: { tools: true, calls: false } },
    asks,
    lastSeen: 1,
  };
}

const connection: LiveConnectionSummary = {
  id: "c1",
  about: { cwd: "/p", pid: 1, mode: "rpc", control: true, askTimeoutMs: 1000 },
  header: { type: "session", id: "s1" },
  status: status([ask]),
};

/** A server whose event stream the test writes to, and whose control answers the test releases. */
function fakeServer() {
  let push: (update: LiveUpdate) => void = () => undefined;
  let release: (status: LiveStatus) => void = () => undefined;
  const encoder = new TextEncoder();
  const fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.endsWith("/api/live/events")) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (update) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(update)}\n\n`));
        },
      });
      return new Response(body, { status: 200 });
    }
    const answered = await new Promise<LiveStatus>((resolve) => (release = resolve));
    return Response.json(answered);
  }) as typeof globalThis.fetch;
  return { fetch, push: (update: LiveUpdate) => push(update), release: (s: LiveStatus) => release(s) };
}

describe("the page's live feed", () => {
  it("keeps a status the stream told after a control request left, over that request's older answer", async () => {
    const server = fakeServer();
    let seen: readonly LiveConnectionSummary[] = [];
    const feed = new LiveFeed({
      access: () => ({ url: "http://server", token: "t" }),
      refused: () => undefined,
      store: {} as SessionStore,
      notices: { post: () => undefined, dismiss: () => undefined } as unknown as Notices,
      hasModel: () => true,
      connections: (connections) => (seen = connections),
      locks: { request: () => new Promise(() => undefined) } as unknown as LockManager,
      fetch: server.fetch,
    });
    feed.start();
    await expect.poll(() => seen.length).toBe(0);
    server.push({ type: "connections", connections: [connection] });
    await expect.poll(() => seen[0]?.status.asks.length).toBe(1);

    // Approve: the request leaves; pi settles the question, and the stream says so before the answer comes.
    const done = feed.control("c1", { type: "answer", id: "call_1", approve: true });
    server.push({ type: "status", connection: "c1", status: status([]) });
    await expect.poll(() => seen[0]?.status.asks.length).toBe(0);
    server.release(status([ask]));
    expect(await done).toBe(true);
    expect(seen[0]?.status.asks).toEqual([]);

    // With nothing newer from the stream, the answer's status is the page's.
    const gates = feed.control("c1", { type: "gates", gates: { tools: false, calls: false } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    server.release({
      ...status([]),
      control: { allowed: true, on: true, gates: { tools: false, calls: false } },
    });
    expect(await gates).toBe(true);
    expect(seen[0]?.status.control.gates.tools).toBe(false);
    feed.stop();
  });
});
