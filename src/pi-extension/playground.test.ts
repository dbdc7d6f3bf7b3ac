import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { IngestBatch, LiveControlState, PiCommand } from "../shared/live/live-protocol.ts";

/**
 * The extension's own behaviour, with pi's real SessionManager and convertToLlm (loaded from pi's package
 * as the other conformance tests load them; pi's package root needs Node 22) and a fake `pi` that runs
 * hooks as pi does. What it shows: hooks return at once whatever the network does, what waits is a bounded
 * queue that drops its oldest events and says how many, a reconnect sends every entry, and a refusal is
 * said once. The real pi CLI with this extension is driven end to end in e2e/live-pi.spec.ts.
 */

vi.mock("@earendil-works/pi-coding-agent", async () => {
  const messages = (await import(
    new URL("../../node_modules/@earendil-works/pi-coding-agent/dist/core/messages.js", import.meta.url).href
  )) as { convertToLlm: unknown };
  return { convertToLlm: messages.convertToLlm };
});

interface SessionManagerLike {
  appendMessage(message: unknown): string;
  getEntries(): { id: string }[];
  getLeafId(): string | null;
  getHeader(): unknown;
  getSessionFile(): string | undefined;
}

let SessionManager: { inMemory(cwd?: string): SessionManagerLike };

beforeAll(async () => {
  ({ SessionManager } = (await import(
    new URL(
      "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
      import.meta.url,
    ).href
  )) as { SessionManager: typeof SessionManager });
});

type Handler = (event: Record<string, unknown>, ctx: unknown) => unknown;

/** Enough of pi to load the extension and run its hooks in order. */
class FakePi {
  readonly handlers = new Map<string, Handler[]>();
  readonly sent: unknown[] = [];
  readonly sessionManager = SessionManager.inMemory("/work/project");
  aborted = 0;
  readonly ctx = {
    cwd: "/work/project",
    mode: "rpc",
    hasUI: false,
    model: { provider: "fixture", id: "fixture-pi", api: "openai-completions" },
    thinkingLevel: "off",
    sessionManager: this.sessionManager,
    abort: () => this.aborted++,
    ui: { notify: () => undefined },
  };

  on(event: string, handler: Handler): () => void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return () => undefined;
  }

  sendMessage(message: unknown): void {
    this.sent.push(message);
  }

  async emit(event: string, fields: Record<string, unknown> = {}): Promise<unknown[]> {
    const results = [];
    for (const handler of this.handlers.get(event) ?? [])
      results.push(await handler({ type: event, ...fields }, this.ctx));
    return results;
  }

  /** A message as pi stores it: its message_end hooks, then the entry; then pi waits on I/O, as it does. */
  async message(message: Record<string, unknown>): Promise<void> {
    await this.emit("message_end", { message });
    this.sessionManager.appendMessage(message);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

interface Ingest {
  server: Server;
  url: string;
  batches: IngestBatch[];
  status: number;
  /** Take requests and never answer them. */
  hang: boolean;
  /** Requests taken while hanging. */
  held: number;
  /** The control state a command stream opens with. */
  control: LiveControlState;
  /** The open command streams. */
  commands: ServerResponse[];
  /** Send pi a command on every open command stream. */
  send(command: PiCommand): void;
  close(): Promise<void>;
}

/** A stand-in for the playground's ingest that records batches and answers with `status`. */
async function ingest(port = 0): Promise<Ingest> {
  const state: Ingest = {
    batches: [],
    status: 200,
    hang: false,
    held: 0,
    control: { allowed: false, on: false, gates: { tools: false, calls: false } },
    commands: [],
    send: (command) => {
      for (const stream of state.commands) stream.write(`data: ${JSON.stringify(command)}\n\n`);
    },
    server: createServer((req, res) => {
      if (state.hang) {
        state.held++;
        return;
      }
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        if (req.url?.startsWith("/api/live/pi/commands")) {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          state.commands.push(res);
          state.send({ type: "state", control: state.control });
          return;
        }
        if (state.status === 200) state.batches.push(JSON.parse(body) as IngestBatch);
        res.writeHead(state.status, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify(
            state.status === 200
              ? { ok: true, maxEventBytes: 1 << 20 }
              : { error: "Wrong pairing token: use the one the playground printed." },
          ),
        );
      });
    }),
    url: "",
    close: () =>
      new Promise((resolve) => {
        state.server.closeAllConnections();
        state.server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => state.server.listen(port, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
const reply = (text: string) => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "openai-completions",
  provider: "fixture",
  model: "fixture-pi",
  usage: {
    input: 3,
    output: 2,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 5,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop",
  timestamp: Date.now(),
});

async function loadExtension(env: Record<string, string>): Promise<FakePi> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const { default: playground } = await import("./playground.ts");
  const pi = new FakePi();
  playground(pi as unknown as Parameters<typeof playground>[0]);
  process.env = saved;
  return pi;
}

async function until<T>(check: () => T | undefined, timeoutMs = 8_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe("the pi extension", () => {
  it("keeps pi going while the playground does not answer: hooks never wait, the queue drops its oldest", async () => {
    const playground = await ingest();
    playground.hang = true;
    stops.push(() => playground.close());
    const pi = await loadExtension({
      PI_PLAYGROUND_URL: playground.url,
      PI_PLAYGROUND_TOKEN: "pairing-token-0123456789",
      PI_PLAYGROUND_QUEUE_EVENTS: "3",
      PI_PLAYGROUND_REQUEST_TIMEOUT_MS: "300",
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await pi.emit("session_start", { reason: "startup" });
    stops.push(() => pi.emit("session_shutdown").then(() => undefined));

    // A run of five turns against a playground that takes requests and never answers: had any hook waited
    // for it, this loop would not finish.
    await until(() => playground.held > 0);
    for (let turn = 0; turn < 5; turn++) {
      await pi.emit("agent_start");
      await pi.message(user(`question ${turn}`));
      const [toolGate] = await pi.emit("tool_call", {
        toolCallId: `t${turn}`,
        toolName: "read",
        input: { path: "a" },
      });
      expect(toolGate).toBeUndefined();
      await pi.emit("context_with_system", { messages: [user(`question ${turn}`)] });
      await pi.emit("before_provider_request", { payload: { model: "fixture-pi", turn } });
      await pi.message(reply(`answer ${turn}`));
      await pi.emit("agent_settled", { aborted: false });
    }
    expect(playground.batches).toEqual([]);

    playground.hang = false;
    const entries = pi.sessionManager.getEntries();
    const batches = await until(() => {
      const got = playground.batches
        .flatMap((batch) => batch.events)
        .flatMap((event) => (event.type === "session" || event.type === "entries" ? event.entries : []));
      return got.length === entries.length ? playground.batches : undefined;
    });
    const events = batches.flatMap((batch) => batch.events);
    // Every entry arrived, in order; of the 15 other events (run, call, run per turn) the 3 newest were kept.
    expect(
      events.flatMap((event) => (event.type === "session" || event.type === "entries" ? event.entries : [])),
    ).toEqual(entries);
    const others = events.filter((event) => event.type !== "session" && event.type !== "entries");
    expect(others.map((event) => event.type)).toEqual(["run", "call", "run"]);
    expect(batches.at(-1)?.dropped).toBe(12);
    const call = others.find((event) => event.type === "call");
    const payload = { model: "fixture-pi", turn: 4 };
    expect(call?.type === "call" && call.call.payload).toEqual({
      kept: "all",
      bytes: JSON.stringify(payload).length,
      value: payload,
    });
    expect(call?.type === "call" && call.call.replyEntryId).toBe(entries.at(-1)?.id);
    // Said once that the playground did not answer, and once that it does.
    await until(() => stderr.mock.calls.some(([text]) => String(text).includes("is live in the playground")));
    const lines = stderr.mock.calls.map(([text]) => String(text));
    expect(lines.filter((line) => line.includes("No playground answers"))).toHaveLength(1);
    stderr.mockRestore();
  });

  it("with control on, a gated tool call waits for the page's answer, and Abort gives it up with the run", async () => {
    const playground = await ingest();
    playground.control = { allowed: true, on: true, gates: { tools: true, calls: false } };
    stops.push(() => playground.close());
    const pi = await loadExtension({
      PI_PLAYGROUND_URL: playground.url,
      PI_PLAYGROUND_TOKEN: "pairing-token-0123456789",
      PI_PLAYGROUND_CONTROL: "1",
      PI_PLAYGROUND_ASK_TIMEOUT_MS: "60000",
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await pi.emit("session_start", { reason: "startup" });
    stops.push(() => pi.emit("session_shutdown").then(() => undefined));
    const events = () => playground.batches.flatMap((batch) => batch.events);
    const asked = (id: string) =>
      events().find((event) => event.type === "ask" && event.ask.id === id) as
        Extract<(typeof playground.batches)[number]["events"][number], { type: "ask" }> | undefined;
    const said = () =>
      stderr.mock.calls.map(([text]) => String(text)).filter((line) => line.includes("controls this pi"));
    // pi says when the state the stream opened with applies, and what it means for its next acts.
    await until(() => said().length > 0);
    expect(said()).toEqual([
      "[pi-playground] The playground controls this pi: it can inject messages and abort runs; each tool call waits for its approval.\n",
    ]);

    const approved = pi.emit("tool_call", { toolCallId: "t1", toolName: "bash", input: { command: "ls" } });
    const ask = await until(() => asked("t1"));
    expect(ask.ask).toMatchObject({
      kind: "tool",
      toolName: "bash",
      args: { command: "ls" },
      timeoutMs: 60_000,
    });
    playground.send({ type: "answer", id: "t1", approve: true });
    expect(await approved).toEqual([undefined]);

    const rejected = pi.emit("tool_call", { toolCallId: "t2", toolName: "bash", input: { command: "rm x" } });
    await until(() => asked("t2"));
    playground.send({ type: "answer", id: "t2", approve: false, reason: "not today" });
    expect(await rejected).toEqual([{ block: true, reason: "Rejected in the playground: not today" }]);

    const aborted = pi.emit("tool_call", {
      toolCallId: "t3",
      toolName: "bash",
      input: { command: "sleep 9" },
    });
    await until(() => asked("t3"));
    playground.send({ type: "abort" });
    expect(await aborted).toEqual([
      { block: true, reason: "Blocked: the run was aborted in the playground." },
    ]);
    expect(pi.aborted).toBe(1);
    // The page hears that pi no longer waits on it.
    await until(() => events().some((event) => event.type === "settled" && event.id === "t3"));

    // A change of gates is said when it applies; the same state again is not; switching off is.
    playground.send({
      type: "state",
      control: { allowed: true, on: true, gates: { tools: true, calls: true } },
    });
    await until(() => said().length > 1);
    expect(said()[1]).toContain(
      "each tool call waits for its approval, and each model call waits for it to continue.",
    );
    playground.send({
      type: "state",
      control: { allowed: true, on: true, gates: { tools: true, calls: true } },
    });
    playground.send({
      type: "state",
      control: { allowed: true, on: false, gates: { tools: false, calls: false } },
    });
    await until(() => said().length > 2);
    expect(said().slice(2)).toEqual(["[pi-playground] The playground no longer controls this pi.\n"]);
    stderr.mockRestore();
  });

  it("says once that the playground refused its token, and pi carries on", async () => {
    const playground = await ingest();
    playground.status = 401;
    stops.push(() => playground.close());
    const pi = await loadExtension({
      PI_PLAYGROUND_URL: playground.url,
      PI_PLAYGROUND_TOKEN: "the-wrong-token-0123456789",
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await pi.emit("session_start", { reason: "startup" });
    stops.push(() => pi.emit("session_shutdown").then(() => undefined));
    for (let turn = 0; turn < 3; turn++) {
      await pi.message(user(`question ${turn}`));
      await pi.message(reply(`answer ${turn}`));
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    const refusals = stderr.mock.calls
      .map(([text]) => String(text))
      .filter((line) => line.includes("refused this pi"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain("Wrong pairing token");
    expect(playground.batches).toEqual([]);
    stderr.mockRestore();
  });

  it("sends nothing and says why when PI_PLAYGROUND_TOKEN is not set", async () => {
    const playground = await ingest();
    stops.push(() => playground.close());
    const pi = await loadExtension({ PI_PLAYGROUND_URL: playground.url, PI_PLAYGROUND_TOKEN: "" });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await pi.emit("session_start", { reason: "startup" });
    await pi.message(user("hello"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stderr.mock.calls.map(([text]) => String(text)).join("")).toMatch(
      /PI_PLAYGROUND_TOKEN is not set/,
    );
    expect(playground.batches).toEqual([]);
    stderr.mockRestore();
    await pi.emit("session_shutdown");
  });
});
