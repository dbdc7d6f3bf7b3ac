import { networkInterfaces } from "node:os";
import { request as httpRequest, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  IngestBatch,
  IngestEvent,
  LiveCall,
  LiveConnectionState,
  LiveStatus,
  LiveUpdate,
  PiCommand,
} from "../../shared/live/live-protocol.ts";
import { createApiHandler } from "../api-handler.ts";
import {
  listenOnLoopback,
  sendRequest,
  TEST_LIMITS,
  TOKEN,
  waitFor,
  type Listening,
} from "../api-handler.test-support.ts";
import { createModelRegistry, type ModelRegistry } from "../model-registry.ts";
import { liveConfig } from "./live-config.ts";
import { isLoopbackAddress } from "./live-routes.ts";

/**
 * The live pi ingest as a pi's extension and a page meet it over real HTTP on loopback: who may send
 * (the pairing token, this machine, never a web page), what is refused and how (malformed, oversized,
 * flooding, out of order, over memory), that one pi's trouble never costs another its session, that
 * credentials are scrubbed as the proxy scrubs its own, and that nothing reaches pi unless it allows
 * control and the page switched it on.
 */

const PAIRING = "pairing-token-for-tests-0123456789";
const KEY = "sk-live-test-key-never-shown-4242";

let registry: ModelRegistry;
let proxy: Listening;

const live = (env: Record<string, string> = {}) =>
  liveConfig({
    PI_PLAYGROUND_TOKEN: PAIRING,
    LIVE_MAX_EVENT_BYTES: String(64 * 1024),
    LIVE_MAX_REQUESTS_PER_SECOND: "1000",
    LIVE_MAX_CONNECTION_BYTES: String(256 * 1024),
    LIVE_MAX_CONNECTIONS: "100",
    ...env,
  });

beforeAll(async () => {
  registry = await createModelRegistry({ env: { OPENAI_API_KEY: KEY }, builtins: false });
  proxy = await listenOnLoopback({ registry, ...TEST_LIMITS, live: live() });
});

afterAll(() => {
  proxy.server.close();
});

const piHeaders = (connection: string, token = PAIRING) => ({
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
  "X-Pi-Playground-Connection": connection,
});

let counter = 0;
const newConnection = () => `test-connection-${++counter}-${Date.now()}`;

function entry(id: string, parentId: string | null, text = `message ${id}`) {
  return {
    type: "message",
    id,
    parentId,
    timestamp: "2026-12-01T10:00:00.000Z",
    message: { role: "user", content: [{ type: "text", text }], timestamp: 1 },
  };
}

function sessionEvent(entries: unknown[], control = false): IngestEvent {
  return {
    type: "session",
    about: { cwd: "/work/project", pid: 42, mode: "rpc", control, askTimeoutMs: 60_000 },
    header: {
      type: "session",
      version: 3,
      id: "pi-session-1",
      timestamp: "2026-12-01T10:00:00.000Z",
      cwd: "/work/project",
    },
    entries,
    leafId: (entries.at(-1) as { id: string } | undefined)?.id ?? null,
  };
}

function batch(connection: string, events: IngestEvent[], dropped = 0): string {
  return JSON.stringify({ connection, dropped, events } satisfies IngestBatch);
}

function post(
  connection: string,
  events: IngestEvent[] | string,
  headers = piHeaders(connection),
  port = proxy.port,
) {
  return sendRequest(port, "/api/live/pi/events", {
    method: "POST",
    headers: { Host: `127.0.0.1:${port}`, ...headers },
    body: typeof events === "string" ? events : batch(connection, events),
  });
}

const pageHeaders = (port = proxy.port) => ({ Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TOKEN}` });

async function state(connection: string, port = proxy.port): Promise<LiveConnectionState | undefined> {
  const reply = await sendRequest(port, `/api/live/sessions/${encodeURIComponent(connection)}`, {
    headers: pageHeaders(port),
  });
  return reply.status === 200 ? (JSON.parse(reply.body) as LiveConnectionState) : undefined;
}

function call(id: string, payload: unknown): LiveCall {
  return {
    id,
    startedAt: 1,
    provider: "openai",
    modelId: "gpt-test",
    api: "openai-completions",
    leafId: "e1",
    transcript: { kept: "all", bytes: 2, value: [] },
    messages: { kept: "all", bytes: 2, value: [] },
    payload: { kept: "all", bytes: 100, value: payload },
    response: {
      status: 200,
      headers: {
        "x-request-id": `req for ${KEY}`,
        authorization: `Bearer ${KEY}`,
        "x-ratelimit-remaining-requests": "99",
      },
    },
    outcome: { stopReason: "stop" },
    timing: { durationMs: 12 },
  };
}

/** A stream read until a condition holds on what arrived (server-sent events, one JSON per data line). */
function readStream<T>(port: number, path: string, headers: Record<string, string>) {
  const received: T[] = [];
  const controller = new AbortController();
  let status = 0;
  const done = new Promise<void>((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers, signal: controller.signal }, (res) => {
      status = res.statusCode ?? 0;
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of frame.split("\n"))
            if (line.startsWith("data: ")) received.push(JSON.parse(line.slice(6)) as T);
        }
      });
      res.on("end", resolve);
      res.on("error", () => resolve());
    });
    req.on("error", () => resolve());
    req.end();
  });
  return {
    received,
    get status() {
      return status;
    },
    done,
    close: () => controller.abort(),
  };
}

describe("who may send live events", () => {
  it("takes a pi's session with the pairing token, and the page reads it back exactly", async () => {
    const id = newConnection();
    const entries = [entry("e1", null), entry("e2", "e1", "second line\u2028with a separator")];
    const reply = await post(id, [sessionEvent(entries)]);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ ok: true, maxEventBytes: 64 * 1024 });
    const read = await state(id);
    expect(read?.entries).toEqual(entries);
    expect(read?.leafId).toBe("e2");
    expect(read?.about.cwd).toBe("/work/project");
    expect(read?.status.state).toBe("connected");
  });

  it("refuses a missing or wrong token with 401, and keeps nothing of it", async () => {
    const id = newConnection();
    const missing = await post(id, [sessionEvent([entry("a", null)])], {
      ...piHeaders(id),
      Authorization: "",
    });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error).toMatch(/Missing pairing token/);
    const wrong = await post(id, [sessionEvent([entry("a", null)])], piHeaders(id, `${PAIRING}x`));
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error).toMatch(/Wrong pairing token/);
    const short = await post(id, [sessionEvent([entry("a", null)])], piHeaders(id, "p"));
    expect(short.status).toBe(401);
    expect(await state(id)).toBeUndefined();
  });

  it("refuses anything a browser sends (an Origin or Sec-Fetch-Site), even with the token", async () => {
    const id = newConnection();
    for (const extra of [{ Origin: `http://127.0.0.1:${proxy.port}` }, { "Sec-Fetch-Site": "same-origin" }]) {
      const reply = await post(id, [sessionEvent([entry("a", null)])], { ...piHeaders(id), ...extra });
      expect(reply.status).toBe(403);
    }
    expect(await state(id)).toBeUndefined();
  });

  it("refuses a Host that is not this server (DNS rebinding)", async () => {
    const id = newConnection();
    const reply = await post(id, [sessionEvent([entry("a", null)])], {
      ...piHeaders(id),
      Host: "evil.example:80",
    } as ReturnType<typeof piHeaders>);
    expect(reply.status).toBe(403);
  });

  it("tells loopback peers from others", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ["192.0.2.2", "10.0.0.1", "::ffff:10.0.0.1", "fe80::1", "", undefined])
      expect(isLoopbackAddress(address)).toBe(false);
  });

  const outside = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === "IPv4" && !address.internal)?.address;

  it.skipIf(outside === undefined)(
    "refuses a pi on another machine unless LIVE_ALLOW_REMOTE=1 (here: a peer on this machine's own network address)",
    async () => {
      const open = async (allowRemote: boolean) => {
        const handler = createApiHandler({
          registry,
          ...TEST_LIMITS,
          hostnames: ["127.0.0.1", outside ?? ""],
          live: live(allowRemote ? { LIVE_ALLOW_REMOTE: "1" } : {}),
        });
        const server = createServer((req, res) => handler(req, res));
        await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
        return { server, port: (server.address() as AddressInfo).port };
      };
      for (const allowRemote of [false, true]) {
        const { server, port } = await open(allowRemote);
        const id = newConnection();
        const reply = await new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {
              host: outside,
              localAddress: outside,
              port,
              path: "/api/live/pi/events",
              method: "POST",
              headers: { ...piHeaders(id), Host: `${outside}:${port}` },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          req.end(batch(id, [sessionEvent([entry("a", null)])]));
        });
        server.close();
        expect(reply).toBe(allowRemote ? 200 : 403);
      }
    },
  );
});

describe("bad traffic is refused and hurts no other session", () => {
  it("refuses malformed events with 400 naming the place, and keeps the connection's session", async () => {
    const id = newConnection();
    expect((await post(id, [sessionEvent([entry("a", null)])])).status).toBe(200);
    const notJson = await post(id, "{ this is not json");
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error).toMatch(/not JSON/);
    const wrongShape = await post(
      id,
      batch(id, [{ type: "entries", from: 1, entries: [{ id: 3 }], leafId: null } as unknown as IngestEvent]),
    );
    expect(wrongShape.status).toBe(400);
    expect(JSON.parse(wrongShape.body).error).toMatch(/events\[0\]\.entries\[0\]\.type must be a string/);
    const unknown = await post(id, batch(id, [{ type: "mystery" } as unknown as IngestEvent]));
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toMatch(/"mystery" is not an event/);
    const mismatched = await post(id, "{}", { ...piHeaders(id), "X-Pi-Playground-Connection": "another" });
    expect(mismatched.status).toBe(400);
    expect((await state(id))?.entries).toHaveLength(1);
  });

  it("refuses an oversized request with 413, stays up, and other sessions go on", async () => {
    const big = newConnection();
    const other = newConnection();
    expect((await post(other, [sessionEvent([entry("o1", null)])])).status).toBe(200);
    const huge = await post(big, [sessionEvent([entry("a", null, "x".repeat(70 * 1024))])]);
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).error).toMatch(/larger than/);
    expect(await state(big)).toBeUndefined();
    const next = await post(other, [
      { type: "entries", from: 1, entries: [entry("o2", "o1")], leafId: "o2" },
    ]);
    expect(next.status).toBe(200);
    expect((await state(other))?.entries).toHaveLength(2);
  });

  it("answers a flood with 429 and Retry-After, while another pi's requests still go through", async () => {
    const own = await listenOnLoopback({
      registry,
      ...TEST_LIMITS,
      live: live({ LIVE_MAX_REQUESTS_PER_SECOND: "20" }),
    });
    const send = (connection: string, events: IngestEvent[]) =>
      post(connection, events, piHeaders(connection), own.port);
    const flooder = newConnection();
    const calm = newConnection();
    expect((await send(flooder, [sessionEvent([entry("f", null)])])).status).toBe(200);
    expect((await send(calm, [sessionEvent([entry("c", null)])])).status).toBe(200);
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 80 }, () => send(flooder, [{ type: "run", running: true }])),
    );
    const seconds = (Date.now() - started) / 1000;
    const refused = replies.filter((reply) => reply.status === 429);
    // A burst of twice the rate, then the rate: 40 at once, and 20 more each second.
    expect(replies.length - refused.length).toBeLessThanOrEqual(40 + Math.ceil(20 * seconds));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.headers["retry-after"]).toBe("1");
    expect(replies.every((reply) => reply.status === 200 || reply.status === 429)).toBe(true);
    const calmReply = await send(calm, [
      { type: "entries", from: 1, entries: [entry("c2", "c")], leafId: "c2" },
    ]);
    expect(calmReply.status).toBe(200);
    // New pis share one allowance for their first request: a flood of made-up connections is cut too.
    const made = await Promise.all(
      Array.from({ length: 80 }, () => send(newConnection(), [sessionEvent([])])),
    );
    expect(made.filter((reply) => reply.status === 429).length).toBeGreaterThan(0);
    own.server.close();
  });

  it("asks for the whole session again (409) when a batch does not continue what it holds", async () => {
    const id = newConnection();
    const unknown = await post(id, [{ type: "entries", from: 0, entries: [entry("a", null)], leafId: "a" }]);
    expect(unknown.status).toBe(409);
    expect((await post(id, [sessionEvent([entry("a", null)])])).status).toBe(200);
    const gap = await post(id, [{ type: "entries", from: 5, entries: [entry("b", "a")], leafId: "b" }]);
    expect(gap.status).toBe(409);
    expect((await state(id))?.entries).toHaveLength(1);
  });

  it("keeps a session within its memory: the oldest calls go first, and entries past it are refused", async () => {
    const id = newConnection();
    expect((await post(id, [sessionEvent([entry("a", null)])])).status).toBe(200);
    for (let index = 0; index < 8; index++) {
      const reply = await post(id, [
        { type: "call", call: call(`call-${index}`, { text: "y".repeat(40 * 1024) }) },
      ]);
      expect(reply.status).toBe(200);
    }
    const read = await state(id);
    expect(read?.calls.map((item) => item.id)).not.toContain("call-0");
    expect(read?.calls.at(-1)?.id).toBe("call-7");
    expect(read?.status.callsDropped).toBeGreaterThan(0);
    let from = 1;
    let refused;
    for (let index = 0; index < 10 && !refused; index++) {
      const reply = await post(id, [
        {
          type: "entries",
          from,
          entries: [entry(`big${index}`, index === 0 ? "a" : `big${index - 1}`, "z".repeat(40 * 1024))],
          leafId: `big${index}`,
        },
      ]);
      if (reply.status === 413) refused = reply;
      else from++;
    }
    expect(refused?.status).toBe(413);
    expect(JSON.parse(refused?.body ?? "{}").error).toMatch(/LIVE_MAX_CONNECTION_BYTES/);
  });

  it("takes no more live pis than LIVE_MAX_CONNECTIONS at once (429), then room again once one ends", async () => {
    const own = await listenOnLoopback({
      registry,
      ...TEST_LIMITS,
      live: live({ LIVE_MAX_CONNECTIONS: "2" }),
    });
    const ids = [newConnection(), newConnection(), newConnection()];
    expect((await post(ids[0] ?? "", [sessionEvent([])], piHeaders(ids[0] ?? ""), own.port)).status).toBe(
      200,
    );
    expect((await post(ids[1] ?? "", [sessionEvent([])], piHeaders(ids[1] ?? ""), own.port)).status).toBe(
      200,
    );
    const third = await post(ids[2] ?? "", [sessionEvent([])], piHeaders(ids[2] ?? ""), own.port);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body).error).toMatch(/LIVE_MAX_CONNECTIONS/);
    expect((await post(ids[0] ?? "", [{ type: "bye" }], piHeaders(ids[0] ?? ""), own.port)).status).toBe(200);
    expect((await post(ids[2] ?? "", [sessionEvent([])], piHeaders(ids[2] ?? ""), own.port)).status).toBe(
      200,
    );
    own.server.close();
  });
});

describe("what the page sees", () => {
  it("needs the page's token for every live route", async () => {
    for (const path of ["/api/live/events", "/api/live/connect", "/api/live/sessions/x"]) {
      const reply = await sendRequest(proxy.port, path, { headers: { Host: `127.0.0.1:${proxy.port}` } });
      expect(reply.status).toBe(401);
    }
    const control = await sendRequest(proxy.port, "/api/live/control", {
      method: "POST",
      headers: { Host: `127.0.0.1:${proxy.port}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(control.status).toBe(401);
    const foreign = await sendRequest(proxy.port, "/api/live/connect", {
      headers: { ...pageHeaders(), Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
  });

  it("streams a list first, then each change as it arrives", async () => {
    const stream = readStream<LiveUpdate>(proxy.port, "/api/live/events", pageHeaders());
    await waitFor(() => stream.received.length > 0);
    expect(stream.received[0]?.type).toBe("connections");
    const id = newConnection();
    await post(id, [sessionEvent([entry("a", null)])]);
    await post(id, [
      { type: "entries", from: 1, entries: [entry("b", "a")], leafId: "b" },
      { type: "run", running: true },
      { type: "tool", phase: "start", toolCallId: "t1", toolName: "read" },
    ]);
    await waitFor(() =>
      stream.received.some((update) => update.type === "status" && update.status.tool === "read"),
    );
    const mine = stream.received.filter(
      (update) =>
        "connection" in update &&
        (update.type === "connection" ? update.connection.id === id : update.connection === id),
    );
    expect(mine.map((update) => update.type)).toEqual(["connection", "entries", "status", "status"]);
    const entries = mine[1];
    expect(entries?.type === "entries" && entries.from).toBe(1);
    stream.close();
  });

  it("scrubs credentials from payloads and response headers as the proxy scrubs its own", async () => {
    const id = newConnection();
    await post(id, [
      sessionEvent([entry("e1", null)]),
      {
        type: "call",
        call: call("scrubbed-call", {
          model: "gpt-test",
          api_key: "anything-at-all",
          note: `my key is ${KEY}`,
        }),
      },
    ]);
    const reply = await sendRequest(proxy.port, `/api/live/sessions/${id}`, { headers: pageHeaders() });
    expect(reply.body).not.toContain(KEY);
    expect(reply.body).not.toContain("anything-at-all");
    const read = JSON.parse(reply.body) as LiveConnectionState;
    const kept = read.calls[0];
    expect(kept?.payload).toEqual({
      kept: "all",
      bytes: 100,
      value: { model: "gpt-test", api_key: "[redacted]", note: "my key is [redacted]" },
    });
    expect(kept?.response?.headers).toEqual({
      "x-request-id": "req for [redacted]",
      "x-ratelimit-remaining-requests": "99",
    });
  });

  it("gives the command to connect a pi, with this server's address and the pairing token", async () => {
    const reply = await sendRequest(proxy.port, "/api/live/connect", { headers: pageHeaders() });
    const info = JSON.parse(reply.body) as { command: string; controlCommand: string; url: string };
    expect(info.url).toBe(`http://127.0.0.1:${proxy.port}`);
    expect(info.command).toMatch(
      new RegExp(
        `^PI_PLAYGROUND_URL=http://127.0.0.1:${proxy.port} PI_PLAYGROUND_TOKEN=${PAIRING} pi -e /\\S+/src/pi-extension/playground.ts$`,
      ),
    );
    expect(info.controlCommand).toContain("PI_PLAYGROUND_CONTROL=1");
  });
});

describe("control", () => {
  const control = (connection: string, command: unknown) =>
    sendRequest(proxy.port, "/api/live/control", {
      method: "POST",
      headers: { ...pageHeaders(), "Content-Type": "application/json" },
      body: JSON.stringify({ connection, command }),
    });
  const commands = (connection: string) =>
    readStream<PiCommand>(proxy.port, `/api/live/pi/commands?connection=${connection}`, {
      Host: `127.0.0.1:${proxy.port}`,
      Authorization: `Bearer ${PAIRING}`,
    });

  it("cannot be switched on for a pi started without PI_PLAYGROUND_CONTROL=1, and sends it nothing", async () => {
    const id = newConnection();
    await post(id, [sessionEvent([entry("a", null)], false)]);
    const stream = commands(id);
    await waitFor(() => stream.received.length > 0);
    const on = await control(id, { type: "control", on: true });
    expect(on.status).toBe(403);
    expect(JSON.parse(on.body).error).toMatch(/PI_PLAYGROUND_CONTROL=1/);
    const abort = await control(id, { type: "abort" });
    expect(abort.status).toBe(403);
    expect(stream.received).toEqual([
      { type: "state", control: { allowed: false, on: false, gates: { tools: false, calls: false } } },
    ]);
    stream.close();
  });

  it("passes commands on only while the page has it on, and answers only what pi asks", async () => {
    const id = newConnection();
    await post(id, [sessionEvent([entry("a", null)], true)]);
    const stream = commands(id);
    await waitFor(() => stream.received.length > 0);
    expect((await control(id, { type: "abort" })).status).toBe(403);
    expect((await control(id, { type: "control", on: true })).status).toBe(200);
    expect((await control(id, { type: "gates", gates: { tools: true, calls: false } })).status).toBe(200);
    const inject = {
      type: "inject",
      deliverAs: "followUp",
      message: { customType: "notification", content: "Build finished", display: true },
    };
    expect((await control(id, inject)).status).toBe(200);
    expect((await control(id, { type: "answer", id: "nothing-asked", approve: true })).status).toBe(409);
    await post(id, [
      {
        type: "ask",
        ask: {
          kind: "tool",
          id: "tool-1",
          toolName: "bash",
          args: { command: "ls" },
          askedAt: 1,
          timeoutMs: 1000,
        },
      },
    ]);
    const answered = await control(id, { type: "answer", id: "tool-1", approve: false, reason: "not now" });
    expect(answered.status).toBe(200);
    expect((JSON.parse(answered.body) as LiveStatus).asks).toEqual([]);
    expect((await control(id, { type: "control", on: false })).status).toBe(200);
    expect((await control(id, { type: "abort" })).status).toBe(403);
    await waitFor(() => stream.received.length >= 6);
    expect(stream.received).toEqual([
      { type: "state", control: { allowed: true, on: false, gates: { tools: false, calls: false } } },
      { type: "state", control: { allowed: true, on: true, gates: { tools: false, calls: false } } },
      { type: "state", control: { allowed: true, on: true, gates: { tools: true, calls: false } } },
      inject,
      { type: "answer", id: "tool-1", approve: false, reason: "not now" },
      { type: "state", control: { allowed: true, on: false, gates: { tools: false, calls: false } } },
    ]);
    stream.close();
  });

  it("refuses hostile requests with the right 4xx, and nothing reaches pi", async () => {
    const id = newConnection();
    await post(id, [sessionEvent([entry("a", null)], true)]);
    const stream = commands(id);
    await waitFor(() => stream.received.length > 0);
    const on = JSON.stringify({ connection: id, command: { type: "control", on: true } });
    const abort = JSON.stringify({ connection: id, command: { type: "abort" } });
    const send = (headers: Record<string, string>, body: string) =>
      sendRequest(proxy.port, "/api/live/control", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body,
      });
    const host = { Host: `127.0.0.1:${proxy.port}` };
    // No token, a wrong one, a pi's pairing token in the page's place: 401.
    expect((await send(host, on)).status).toBe(401);
    expect((await send({ ...host, Authorization: "Bearer not-the-page-token-0123456789" }, on)).status).toBe(
      401,
    );
    expect((await send({ ...host, Authorization: `Bearer ${PAIRING}` }, on)).status).toBe(401);
    // Another origin, even with the page's token: 403.
    expect((await send({ ...pageHeaders(), Origin: "https://evil.example" }, on)).status).toBe(403);
    // Not JSON, a command it does not know, a connection it does not hold: 400, 400, 404.
    expect((await send(pageHeaders(), "{ not json")).status).toBe(400);
    expect(
      (await send(pageHeaders(), JSON.stringify({ connection: id, command: { type: "rm" } }))).status,
    ).toBe(400);
    expect(
      (await send(pageHeaders(), JSON.stringify({ connection: "nobody", command: { type: "abort" } })))
        .status,
    ).toBe(404);
    // Larger than LIVE_MAX_EVENT_BYTES: 413.
    const huge = JSON.stringify({
      connection: id,
      command: {
        type: "inject",
        deliverAs: "steer",
        message: { customType: "x", content: "y".repeat(70 * 1024), display: true },
      },
    });
    expect((await send(pageHeaders(), huge)).status).toBe(413);
    // Control off for this connection: 403.
    expect((await send(pageHeaders(), abort)).status).toBe(403);
    // pi heard nothing but its first state.
    expect(stream.received).toEqual([
      { type: "state", control: { allowed: true, on: false, gates: { tools: false, calls: false } } },
    ]);
    expect((await state(id))?.status.control.on).toBe(false);
    stream.close();
  });

  it("refuses malformed commands with 400", async () => {
    const reply = await control("x", { type: "inject", deliverAs: "sometime", message: {} });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error).toMatch(/deliverAs/);
  });

  it("ends the session soon after pi's link closes (pi exited), and the page still reads it", async () => {
    const id = newConnection();
    await post(id, [sessionEvent([entry("a", null)])]);
    const stream = commands(id);
    await waitFor(() => stream.received.length > 0);
    stream.close();
    const read = await until(async () => {
      const current = await state(id);
      return current?.status.state === "ended" ? current : undefined;
    });
    expect(read?.status.state).toBe("ended");
    expect(read?.status.endedReason).toBe("its connection closed");
    expect(read?.entries).toHaveLength(1);
  });
});

/** Polls an asynchronous check until it gives a value. */
async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
