import type { APIRequestContext } from "@playwright/test";
import type { LiveConnectionState } from "../src/shared/live/live-protocol.ts";
import { startFixtureServer, type Fixture } from "./fixtures/openai-fixture-server.mjs";
import { PiProcess, piWorld, type PiWorld } from "./fixtures/pi-process.ts";
import { LIVE_TOKEN, PI_FIXTURE_PORT, PORT } from "./ports.ts";
import { expect, test } from "./support.ts";

/**
 * A real pi coding agent (the pinned CLI, on a Node 22 from the registry, offline against a loopback
 * fixture) with the playground's extension, streaming its session to the playground as it works.
 */

const BASE = `http://127.0.0.1:${PORT}`;

let fixture: Fixture;
let world: PiWorld;

test.beforeAll(async () => {
  fixture = await startFixtureServer(PI_FIXTURE_PORT);
});

test.afterAll(async () => {
  await fixture.close();
});

test.beforeEach(() => {
  fixture.requests.length = 0;
  world = piWorld(fixture.port);
});

test.afterEach(() => {
  world.remove();
});

/** The page's token, as the page gets it. */
async function pageToken(request: APIRequestContext): Promise<string> {
  const reply = await request.get(`${BASE}/api/session`);
  return ((await reply.json()) as { token: string }).token;
}

/** The live session of the pi whose session has this id, as the page reads it. */
async function liveState(
  request: APIRequestContext,
  sessionId: string,
): Promise<LiveConnectionState | undefined> {
  const headers = { Authorization: `Bearer ${await pageToken(request)}` };
  for (const id of await connectionIds(headers)) {
    const reply = await request.get(`${BASE}/api/live/sessions/${id}`, { headers });
    const state = (await reply.json()) as LiveConnectionState;
    if (state.header.id === sessionId) return state;
  }
  return undefined;
}

/** The ids of the live connections, read from the first message of the page's event stream. */
async function connectionIds(headers: Record<string, string>): Promise<string[]> {
  const controller = new AbortController();
  const response = await fetch(`${BASE}/api/live/events`, { headers, signal: controller.signal });
  const reader = response.body?.getReader();
  let text = "";
  while (reader && !text.includes("\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  controller.abort();
  const first = JSON.parse(text.slice(text.indexOf("data: ") + 6, text.indexOf("\n\n"))) as {
    connections: { id: string }[];
  };
  return first.connections.map((connection) => connection.id);
}

test("a real pi streams its session, calls and tool results to the playground", async ({ request }) => {
  test.setTimeout(120_000);
  const pi = new PiProcess({
    world,
    env: { PI_PLAYGROUND_URL: BASE, PI_PLAYGROUND_TOKEN: LIVE_TOKEN },
  });
  try {
    await pi.prompt("please read notes.txt");
    const entries = await pi.entries();
    const { sessionId } = await pi.command<{ sessionId: string }>({ type: "get_state" });

    await expect
      .poll(async () => (await liveState(request, sessionId))?.entries.length, { timeout: 10_000 })
      .toBe(entries.length);
    const state = await liveState(request, sessionId);
    expect(state?.entries).toEqual(entries);
    expect(state?.about.cwd).toBe(world.cwd);

    // Two calls: the one that asked for the tool, and the one that read its result.
    await expect.poll(async () => (await liveState(request, sessionId))?.calls.length).toBe(2);
    const calls = (await liveState(request, sessionId))?.calls ?? [];
    expect(fixture.requests).toHaveLength(2);
    calls.forEach((call, index) => {
      expect(call.payload.kept).toBe("all");
      expect(call.payload.kept === "all" && call.payload.value).toEqual(fixture.requests[index]?.body);
      expect(call.response?.status).toBe(200);
      expect(call.outcome.stopReason).toBe(index === 0 ? "toolUse" : "stop");
    });
    const roles = (call: (typeof calls)[number]) =>
      call.transcript.kept === "all" ? (call.transcript.value as { role: string }[]).map((m) => m.role) : [];
    expect(roles(calls[0]!)).toEqual(["system", "user"]);
    expect(roles(calls[1]!)).toEqual(["system", "user", "assistant", "toolResult"]);
    const toolResult = entries.find(
      (entry) => (entry as { message?: { role: string } }).message?.role === "toolResult",
    ) as { id: string; message: { content: { text: string }[]; isError: boolean } };
    expect(toolResult.message.isError).toBe(false);
    expect(toolResult.message.content[0]?.text).toContain("The build is green.");
    // Each call names the entry pi stored its reply in.
    const replyIds = entries
      .filter((entry) => (entry as { message?: { role: string } }).message?.role === "assistant")
      .map((entry) => (entry as { id: string }).id);
    expect(calls.map((call) => call.replyEntryId)).toEqual(replyIds);
  } finally {
    await pi.stop();
  }
});
