/**
 * pi playground, live: this pi extension streams a running pi coding agent's session to a pi playground
 * server, where the page shows it as a live session (its facts, model view, calls with their payloads,
 * anatomy and tree) as it happens. Load it with
 *
 *   PI_PLAYGROUND_URL=http://127.0.0.1:4173 PI_PLAYGROUND_TOKEN=<token> pi -e <this file>
 *
 * (`npm start` prints the exact command, and the page shows it under "Connect pi"), or copy it into
 * ~/.pi/agent/extensions/. It is one file with no imports beyond pi's own and Node's, so it can be copied
 * anywhere; the types it imports from the playground are erased when pi loads it.
 *
 * pi works on unchanged whether or not the playground is there: hooks only note what happened and return;
 * the network is used in the background (one request at a time, reconnecting with backoff), and what
 * waits to be sent is a bounded queue that drops its oldest events first and tells the page how many.
 * Session entries are never queued: they are read from pi's session when there is room to send them, and
 * sent again in full after a reconnect, so the page catches up with every entry.
 *
 * With PI_PLAYGROUND_CONTROL=1, and only once the page switches control on for this pi, the page may
 * inject messages, abort the run, approve or reject tool calls, and hold each model call until Continue.
 * Then, and only then, hooks wait for the page: up to PI_PLAYGROUND_ASK_TIMEOUT_MS (5 minutes), after
 * which a tool call is blocked and a held model call cancelled. Whoever controls a live pi can run shell
 * commands through it: see the playground's README.
 */
import { convertToLlm, type ExtensionAPI, type ExtensionContext } from "@earendil-works/pi-coding-agent";
import { randomUUID } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Captured } from "../shared/api-types.ts";
import type {
  IngestEvent,
  LiveCall,
  LiveControlState,
  LiveResponse,
  PiAbout,
  PiCommand,
} from "../shared/live/live-protocol.ts";

const DEFAULT_URL = "http://127.0.0.1:4173";
/** Events kept while the playground cannot take them (entries are not among them: see above). */
const DEFAULT_QUEUE_EVENTS = 1000;
const DEFAULT_QUEUE_BYTES = 32 * 1024 * 1024;
const DEFAULT_ASK_TIMEOUT_MS = 5 * 60 * 1000;
/** A call's transcript, model view and payload are each kept up to this size, as the page keeps its own. */
const DEFAULT_PART_BYTES = 2 * 1024 * 1024;
/** Until the server says otherwise. */
const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;
const HEARTBEAT_MS = 5000;
/** How long events gather before a request takes them (well within the 200 ms the page may lag pi by). */
const BATCH_MS = 40;
/** A playground that takes longer than this to answer is treated as not there (the request is retried). */
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;
/** Response headers worth showing: rate limits, request ids, retry hints. Never credentials. */
const SHOWN_HEADER =
  /ratelimit|request-id|^x-request|retry-after|^openai-(model|organization|processing-ms|version)$|^anthropic-organization-id$|^cf-ray$|^x-amzn-requestid$|^date$/i;

interface Settings {
  url: string;
  token: string | undefined;
  control: boolean;
  queueEvents: number;
  queueBytes: number;
  askTimeoutMs: number;
  partBytes: number;
  requestTimeoutMs: number;
}

function readSettings(env: NodeJS.ProcessEnv): Settings {
  const positive = (value: string | undefined, fallback: number) => {
    const parsed = Number(value);
    return value !== undefined && Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
  };
  return {
    url: (env.PI_PLAYGROUND_URL?.trim() || DEFAULT_URL).replace(/\/+$/, ""),
    token: env.PI_PLAYGROUND_TOKEN?.trim() || undefined,
    control: env.PI_PLAYGROUND_CONTROL === "1" || env.PI_PLAYGROUND_CONTROL === "true",
    queueEvents: positive(env.PI_PLAYGROUND_QUEUE_EVENTS, DEFAULT_QUEUE_EVENTS),
    queueBytes: positive(env.PI_PLAYGROUND_QUEUE_BYTES, DEFAULT_QUEUE_BYTES),
    askTimeoutMs: positive(env.PI_PLAYGROUND_ASK_TIMEOUT_MS, DEFAULT_ASK_TIMEOUT_MS),
    partBytes: positive(env.PI_PLAYGROUND_PART_BYTES, DEFAULT_PART_BYTES),
    requestTimeoutMs: positive(env.PI_PLAYGROUND_REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS),
  };
}

/** A JSON text kept whole up to `limit` characters, or its start; as the page keeps a call's parts. */
function captured(json: string | undefined, limit: number): Captured<unknown> & { json?: string } {
  if (json === undefined) return { kept: "none", bytes: 0, reason: "pi did not hand it over" };
  const bytes = Buffer.byteLength(json);
  if (bytes <= limit) return { kept: "all", value: undefined, bytes, json };
  return { kept: "truncated", text: json.slice(0, limit), bytes };
}

/**
 * JSON of a value some of whose parts are JSON already (a call's transcript and payload, serialized when
 * pi handed them over): they are spliced in rather than parsed and written again.
 */
function jsonWith(value: unknown, raw: Map<string, string>): string {
  let text = JSON.stringify(value);
  for (const [marker, json] of raw) text = text.replace(JSON.stringify(marker), () => json);
  return text;
}

function capturedJson(
  part: Captured<unknown> & { json?: string },
  raw: Map<string, string>,
): Captured<unknown> {
  if (part.kept !== "all" || part.json === undefined) return part;
  const marker = `\u0000raw:${raw.size}`;
  raw.set(marker, part.json);
  return { kept: "all", bytes: part.bytes, value: marker };
}

interface OpenCall {
  id: string;
  startedAt: number;
  leafId: string | null;
  provider: string;
  modelId: string;
  api: string;
  thinkingLevel: string | undefined;
  transcript: Captured<unknown> & { json?: string };
  messages: Captured<unknown> & { json?: string };
  messageSources?: number[];
  payload?: Captured<unknown> & { json?: string };
  requestAt?: number;
  firstTokenAt?: number;
  response?: LiveResponse;
}

/** A finished call waiting for pi to store its reply, so that the record can name the reply's entry. */
interface EndedCall {
  open: OpenCall;
  reply: unknown;
  outcome: LiveCall["outcome"];
  endedAt: number;
}

interface Queued {
  json: string;
  bytes: number;
}

type Answer = { approve: boolean; reason?: string };

/** Kept-alive connections to the playground, so that a request does not open one each time. */
const AGENTS = {
  "http:": new HttpAgent({ keepAlive: true, maxSockets: 2 }),
  "https:": new HttpsAgent({ keepAlive: true, maxSockets: 2 }),
};

/**
 * POST a JSON body and read the answer, within `timeoutMs` for the whole exchange. Node's own http client
 * rather than fetch: a request through fetch costs pi several times the CPU (its streams, its signal
 * handling), which shows in pi's time per call when calls are quick (see the live pi rows of npm run bench).
 */
function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; ok: boolean; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    const send = secure ? httpsRequest : httpRequest;
    const request = send(
      target,
      {
        method: "POST",
        agent: AGENTS[secure ? "https:" : "http:"],
        headers: {
          ...headers,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          clearTimeout(timer);
          const status = response.statusCode ?? 0;
          resolve({
            status,
            ok: status >= 200 && status < 300,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
        response.on("error", fail);
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    timer.unref();
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(error);
    }
    request.on("error", fail);
    request.end(body);
  });
}

/** What a control state lets the playground do with pi, in pi's words; nothing while control is off. */
function controlLine(state: LiveControlState): string | undefined {
  if (!state.allowed || !state.on) return undefined;
  const waits = [
    state.gates.tools ? "each tool call waits for its approval" : "",
    state.gates.calls ? "each model call waits for it to continue" : "",
  ].filter(Boolean);
  return `The playground controls this pi: it can inject messages and abort runs; ${
    waits.length > 0 ? waits.join(", and ") : "pi does not wait for it before acting"
  }.`;
}

/** What pi says when the playground's control of it changes; nothing when what pi does is the same. */
function controlNotice(before: LiveControlState, after: LiveControlState): string | undefined {
  const was = controlLine(before);
  const now = controlLine(after);
  if (now === was) return undefined;
  return now ?? "The playground no longer controls this pi.";
}

/** The live link of one pi session to the playground. */
class LiveLink {
  readonly #settings: Settings;
  readonly #connection = randomUUID();
  #ctx: ExtensionContext | undefined;
  #queue: Queued[] = [];
  #queuedBytes = 0;
  #dropped = 0;
  /** The server holds this connection's session (a "session" event was accepted). */
  #sessionSent = false;
  /** Entries the server holds, by position in pi's session. */
  #entriesSent = 0;
  #leafSent: string | null | undefined;
  #maxEventBytes = DEFAULT_MAX_EVENT_BYTES;
  #inFlight = false;
  #scheduled = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryMs = RETRY_MIN_MS;
  #heartbeat: NodeJS.Timeout | undefined;
  #lastSentAt = 0;
  #connected = false;
  #closed = false;
  #said = new Set<string>();
  #call: OpenCall | undefined;
  #ended: EndedCall[] = [];
  // Control: the page's state as last heard, the questions that wait, the command stream.
  #control: LiveControlState = { allowed: false, on: false, gates: { tools: false, calls: false } };
  #commandsOpen = false;
  #commands: AbortController | undefined;
  #commandRetry: NodeJS.Timeout | undefined;
  readonly #asks = new Map<string, { resolve: (answer: Answer | string) => void }>();
  readonly #pi: ExtensionAPI;

  constructor(pi: ExtensionAPI, settings: Settings) {
    this.#pi = pi;
    this.#settings = settings;
  }

  start(ctx: ExtensionContext): void {
    this.#ctx = ctx;
    if (!this.#settings.token) {
      this.#say(
        "token",
        `PI_PLAYGROUND_TOKEN is not set, so this session is not sent to the playground; start pi with the command the playground prints (npm start) or shows under "Connect pi". pi carries on as usual.`,
      );
      return;
    }
    this.#heartbeat = setInterval(() => {
      if (Date.now() - this.#lastSentAt >= HEARTBEAT_MS) this.schedule();
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
    this.schedule();
  }

  // --- what pi does, noted by the hooks ------------------------------------------------------------

  enqueue(event: IngestEvent | (() => string)): void {
    if (this.#closed || !this.#settings.token) return;
    const json = typeof event === "function" ? event() : JSON.stringify(event);
    const bytes = Buffer.byteLength(json);
    this.#queue.push({ json, bytes });
    this.#queuedBytes += bytes;
    while (
      this.#queue.length > this.#settings.queueEvents ||
      (this.#queuedBytes > this.#settings.queueBytes && this.#queue.length > 0)
    ) {
      const oldest = this.#queue.shift();
      this.#queuedBytes -= oldest?.bytes ?? 0;
      this.#dropped++;
    }
    this.schedule();
  }

  /** The request of a model call is built (the transcript as this hook sees it, after earlier extensions). */
  callStarted(messages: unknown[], ctx: ExtensionContext): void {
    if (!this.#settings.token) return;
    const model = ctx.model;
    const limit = this.#settings.partBytes;
    // pi's convertToLlm maps each message on its own (and drops some): converted one by one, the model
    // view says which transcript message each of its messages came from.
    let converted: string | undefined;
    let messageSources: number[] | undefined;
    try {
      const each = (messages as Parameters<typeof convertToLlm>[0]).map((message) => convertToLlm([message]));
      converted = JSON.stringify(each.flat());
      messageSources = each.flatMap((out, index) => out.map(() => index));
    } catch {
      converted = undefined;
    }
    this.#call = {
      id: randomUUID(),
      startedAt: Date.now(),
      leafId: ctx.sessionManager.getLeafId(),
      provider: model?.provider ?? "unknown",
      modelId: model?.id ?? "unknown",
      api: model?.api ?? "unknown",
      thinkingLevel: ctx.thinkingLevel,
      transcript: captured(JSON.stringify(messages), limit),
      messages: captured(converted, limit),
      ...(messageSources ? { messageSources } : {}),
    };
  }

  /** The exact payload; with calls gated, the call waits here for the page. Resolves true to send it. */
  async payload(payload: unknown, ctx: ExtensionContext): Promise<boolean> {
    const call = this.#call;
    if (!call) return true;
    call.payload = captured(JSON.stringify(payload), this.#settings.partBytes);
    call.requestAt = Date.now();
    if (!this.#gated("calls")) return true;
    const { json: _json, ...shown } = call.payload;
    const waiting = shown.kept === "all" ? { ...shown, value: payload } : shown;
    const answer = await this.#ask(call.id, () =>
      JSON.stringify({
        type: "ask",
        ask: {
          kind: "call",
          id: call.id,
          provider: call.provider,
          modelId: call.modelId,
          payload: waiting,
          askedAt: Date.now(),
          timeoutMs: this.#settings.askTimeoutMs,
        },
      } satisfies IngestEvent),
    );
    if (typeof answer !== "string" && answer.approve) return true;
    this.#say(
      `call:${call.id}`,
      typeof answer === "string"
        ? `The model call was cancelled: ${answer}.`
        : "The model call was cancelled in the playground.",
      { always: true },
    );
    ctx.abort();
    return false;
  }

  response(status: number, headers: Record<string, string>): void {
    const call = this.#call;
    if (!call) return;
    const shown: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (SHOWN_HEADER.test(name)) shown[name.toLowerCase()] = String(value);
    }
    call.response = { status, headers: shown };
  }

  token(): void {
    if (this.#call && this.#call.firstTokenAt === undefined) this.#call.firstTokenAt = Date.now();
  }

  /** The reply is final: the call is recorded once pi has stored the reply (see #finishCalls). */
  callEnded(reply: { stopReason?: string; usage?: unknown; errorMessage?: string }): void {
    const open = this.#call;
    this.#call = undefined;
    if (!open) return;
    this.#ended.push({
      open,
      reply,
      outcome: {
        stopReason: reply.stopReason ?? "unknown",
        ...(reply.usage !== undefined ? { usage: reply.usage } : {}),
        ...(reply.errorMessage ? { errorMessage: reply.errorMessage } : {}),
      },
      endedAt: Date.now(),
    });
    // Recorded once pi has stored the reply (right after these hooks return), connected or not: what
    // waits for the playground is the bounded queue, never the calls themselves.
    setImmediate(() => {
      this.#finishCalls();
      this.schedule();
    });
  }

  /** Ask the page whether a tool call may run; resolves to a reason to block it, or undefined. */
  async toolCall(toolCallId: string, toolName: string, args: unknown): Promise<string | undefined> {
    if (!this.#gated("tools")) return undefined;
    const answer = await this.#ask(toolCallId, () =>
      JSON.stringify({
        type: "ask",
        ask: {
          kind: "tool",
          id: toolCallId,
          toolName,
          args,
          askedAt: Date.now(),
          timeoutMs: this.#settings.askTimeoutMs,
        },
      } satisfies IngestEvent),
    );
    if (typeof answer === "string") return `Blocked: ${answer}.`;
    if (answer.approve) return undefined;
    return answer.reason?.trim()
      ? `Rejected in the playground: ${answer.reason.trim()}`
      : "Rejected in the playground.";
  }

  close(): void {
    if (this.#closed) return;
    this.enqueue({ type: "bye" });
    this.#closed = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#commandRetry);
    this.#commands?.abort();
    for (const [id, ask] of this.#asks) {
      this.#asks.delete(id);
      ask.resolve("pi's session ended");
    }
    // What is queued goes out in one last request, not awaited: pi's shutdown does not wait for it.
    this.#flush(true);
  }

  // --- control ---------------------------------------------------------------------------------------

  /** Control is on and this gate is closed. While the playground cannot be reached, a closed gate stays closed. */
  #gated(gate: "tools" | "calls"): boolean {
    return this.#settings.control && this.#control.on && this.#control.gates[gate];
  }

  #ask(id: string, event: () => string): Promise<Answer | string> {
    if (!this.#connected || !this.#commandsOpen)
      return Promise.resolve("the playground that controls this pi cannot be reached");
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#asks.delete(id);
        this.enqueue({ type: "settled", id, outcome: "timed out" });
        resolve(`no answer from the playground within ${Math.round(this.#settings.askTimeoutMs / 1000)} s`);
      }, this.#settings.askTimeoutMs);
      this.#asks.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
      });
      this.enqueue(event);
    });
  }

  #command(command: PiCommand): void {
    const ctx = this.#ctx;
    switch (command.type) {
      case "state": {
        const notice = this.#settings.control ? controlNotice(this.#control, command.control) : undefined;
        this.#control = command.control;
        if (!command.control.on) this.#giveUpAsks("control was switched off in the playground");
        // The person at pi's terminal learns who holds their agent, and from when: the line is said once
        // pi has the new state, so it also marks the moment the page's choice applies.
        if (notice) this.#say("control", notice, { always: true });
        return;
      }
      case "answer": {
        const ask = this.#asks.get(command.id);
        if (!ask) return;
        this.#asks.delete(command.id);
        ask.resolve({ approve: command.approve, ...(command.reason ? { reason: command.reason } : {}) });
        return;
      }
      case "inject":
        if (!this.#control.on) return;
        this.#pi.sendMessage(
          {
            customType: command.message.customType,
            content: command.message.content as string,
            display: command.message.display,
            ...(command.message.details !== undefined ? { details: command.message.details } : {}),
          },
          {
            deliverAs: command.deliverAs,
            ...(command.deliverAs === "nextTurn" ? {} : { triggerTurn: true }),
          },
        );
        return;
      case "abort":
        if (!this.#control.on) return;
        // A question pi waits on belongs to the run: it is given up with it, rather than left to time out.
        this.#giveUpAsks("the run was aborted in the playground");
        ctx?.abort();
        return;
    }
  }

  #giveUpAsks(reason: string): void {
    for (const [id, ask] of this.#asks) {
      this.#asks.delete(id);
      this.enqueue({ type: "settled", id, outcome: reason });
      ask.resolve(reason);
    }
  }

  #openCommands(): void {
    // Open whether or not control is allowed: while it is open, the playground knows this pi is there, and
    // learns at once when pi exits (its connection closes), without waiting for a heartbeat to miss.
    if (this.#commandsOpen || this.#commands || this.#closed) return;
    const abort = new AbortController();
    this.#commands = abort;
    const retry = () => {
      this.#commands = undefined;
      this.#commandsOpen = false;
      this.#giveUpAsks("the playground that controls this pi went away");
      if (this.#closed) return;
      clearTimeout(this.#commandRetry);
      this.#commandRetry = setTimeout(() => this.#openCommands(), RETRY_MAX_MS);
      this.#commandRetry.unref();
    };
    void (async () => {
      const response = await fetch(
        `${this.#settings.url}/api/live/pi/commands?connection=${encodeURIComponent(this.#connection)}`,
        { headers: { Authorization: `Bearer ${this.#settings.token}` }, signal: abort.signal },
      );
      if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
      this.#commandsOpen = true;
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
          const line = buffer.slice(0, end).replace(/\r$/, "");
          buffer = buffer.slice(end + 1);
          if (!line.startsWith("data: ")) continue;
          try {
            this.#command(JSON.parse(line.slice(6)) as PiCommand);
          } catch {
            // A command this version does not understand is ignored.
          }
        }
      }
    })().then(retry, retry);
  }

  // --- sending ----------------------------------------------------------------------------------------

  schedule(): void {
    if (this.#scheduled || this.#inFlight || this.#retryTimer || !this.#settings.token) return;
    this.#scheduled = true;
    // After the hook that asked, and after pi has stored what the hook saw (pi appends an entry right after
    // its message_end handlers return); and a moment later still, so that what one step of pi's loop does
    // (a reply, its entry, the turn's end, the run's end) goes out in one request rather than several: each
    // request costs pi and the playground more than its events do (see the live pi rows of npm run bench).
    const timer = setTimeout(() => {
      this.#scheduled = false;
      this.#flush(false);
    }, BATCH_MS);
    timer.unref();
  }

  /** Every finished call whose reply pi has stored (or that has none) becomes a "call" event. */
  #finishCalls(): void {
    if (this.#ended.length === 0) return;
    let entries: readonly { id: string; type: string; message?: unknown }[];
    try {
      entries = (this.#ctx?.sessionManager.getEntries() ?? []) as unknown as typeof entries;
    } catch {
      entries = [];
    }
    while (this.#ended.length > 0) {
      const ended = this.#ended[0];
      if (!ended) break;
      let replyEntryId: string | undefined;
      for (let index = entries.length - 1; index >= 0 && index >= entries.length - 50; index--) {
        const entry = entries[index];
        if (entry?.type === "message" && entry.message === ended.reply) {
          replyEntryId = entry.id;
          break;
        }
      }
      // pi stores a reply as the hook returns; one that is not there by now was not stored (or is not ours).
      this.#ended.shift();
      const { open } = ended;
      const raw = new Map<string, string>();
      const call: LiveCall = {
        id: open.id,
        startedAt: open.startedAt,
        provider: open.provider,
        modelId: open.modelId,
        api: open.api,
        ...(open.thinkingLevel ? { thinkingLevel: open.thinkingLevel } : {}),
        leafId: open.leafId,
        ...(replyEntryId ? { replyEntryId } : {}),
        transcript: capturedJson(open.transcript, raw) as Captured<unknown[]>,
        messages: capturedJson(open.messages, raw) as Captured<unknown[]>,
        ...(open.messageSources ? { messageSources: open.messageSources } : {}),
        payload: open.payload
          ? capturedJson(open.payload, raw)
          : { kept: "none", bytes: 0, reason: "the call ended before pi built its request" },
        ...(open.response ? { response: open.response } : {}),
        outcome: ended.outcome,
        timing: {
          ...(open.firstTokenAt !== undefined
            ? { firstTokenMs: open.firstTokenAt - (open.requestAt ?? open.startedAt) }
            : {}),
          durationMs: ended.endedAt - (open.requestAt ?? open.startedAt),
        },
      };
      this.enqueue(() => jsonWith({ type: "call", call } satisfies IngestEvent, raw));
    }
  }

  #flush(final: boolean): void {
    if (this.#inFlight || !this.#settings.token) return;
    const ctx = this.#ctx;
    if (!ctx) return;
    let entries: ReturnType<ExtensionContext["sessionManager"]["getEntries"]>;
    let leafId: string | null;
    let header: Record<string, unknown> | null;
    try {
      entries = ctx.sessionManager.getEntries();
      leafId = ctx.sessionManager.getLeafId();
      header = ctx.sessionManager.getHeader() as Record<string, unknown> | null;
    } catch {
      // The session was replaced (pi's ctx is stale after a switch): this link's session is over.
      return;
    }
    this.#finishCalls();
    const budget = this.#maxEventBytes - 256;
    const parts: string[] = [];
    let size = 0;
    let entriesTo = this.#entriesSent;
    const entryJson = (entry: unknown): string => {
      const json = JSON.stringify(entry);
      if (Buffer.byteLength(json) < budget - 1024) return json;
      const { id, parentId, timestamp, type } = entry as Record<string, unknown>;
      this.#say(
        "entry-too-large",
        `An entry of this session (${String(id)}) is larger than the playground takes; the playground shows a stand-in for it.`,
      );
      return JSON.stringify({
        type: "playground_omitted",
        id,
        parentId,
        timestamp,
        omittedType: type,
        bytes: Buffer.byteLength(json),
      });
    };
    const addEntries = (from: number): string[] => {
      const list: string[] = [];
      for (let index = from; index < entries.length; index++) {
        const json = entryJson(entries[index]);
        if (size + json.length + 1 > budget && list.length > 0) break;
        list.push(json);
        size += json.length + 1;
        entriesTo = index + 1;
      }
      return list;
    };
    if (!this.#sessionSent) {
      this.#entriesSent = 0;
      const about: PiAbout = {
        cwd: ctx.cwd,
        pid: process.pid,
        mode: ctx.mode,
        control: this.#settings.control,
        askTimeoutMs: this.#settings.askTimeoutMs,
        ...(ctx.sessionManager.getSessionFile() ? { sessionFile: ctx.sessionManager.getSessionFile() } : {}),
      };
      const list = addEntries(0);
      parts.push(
        `{"type":"session","about":${JSON.stringify(about)},"header":${JSON.stringify(header ?? {})},"entries":[${list.join(",")}],"leafId":${JSON.stringify(entriesTo === entries.length ? leafId : (entries[entriesTo - 1]?.id ?? null))}}`,
      );
    } else if (entries.length > this.#entriesSent || leafId !== this.#leafSent) {
      const from = this.#entriesSent;
      const list = addEntries(from);
      parts.push(
        `{"type":"entries","from":${from},"entries":[${list.join(",")}],"leafId":${JSON.stringify(entriesTo === entries.length ? leafId : (entries[entriesTo - 1]?.id ?? null))}}`,
      );
    }
    const allEntriesIn = entriesTo === entries.length;
    let taken = 0;
    if (allEntriesIn) {
      for (const item of this.#queue) {
        if (item.bytes > budget) {
          // Larger than the server takes: it can never be sent.
          taken++;
          this.#dropped++;
          continue;
        }
        if (size + item.bytes + 1 > budget) break;
        parts.push(item.json);
        size += item.bytes + 1;
        taken++;
      }
    }
    if (parts.length === 0 && !final && Date.now() - this.#lastSentAt < HEARTBEAT_MS) return;
    const body = `{"connection":${JSON.stringify(this.#connection)},"dropped":${this.#dropped},"events":[${parts.join(",")}]}`;
    const sentLeaf = allEntriesIn ? leafId : undefined;
    this.#inFlight = true;
    this.#lastSentAt = Date.now();
    void this.#post(body).then(
      (result) => {
        this.#inFlight = false;
        if (result === "ok") {
          this.#sessionSent = true;
          this.#entriesSent = entriesTo;
          if (sentLeaf !== undefined) this.#leafSent = sentLeaf;
          for (const item of this.#queue.splice(0, taken)) this.#queuedBytes -= item.bytes;
          this.#retryMs = RETRY_MIN_MS;
          this.#openCommands();
          if (this.#queue.length > 0 || this.#entriesSent < entries.length || this.#ended.length > 0)
            this.schedule();
          return;
        }
        if (result === "resync") {
          this.#sessionSent = false;
          this.schedule();
          return;
        }
        this.#retryLater();
      },
      () => {
        this.#inFlight = false;
        this.#retryLater();
      },
    );
  }

  #retryLater(): void {
    if (this.#closed) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.schedule();
    }, this.#retryMs);
    this.#retryTimer.unref();
    this.#retryMs = Math.min(RETRY_MAX_MS, this.#retryMs * 2);
  }

  async #post(body: string): Promise<"ok" | "resync" | "failed"> {
    let response: { status: number; ok: boolean; text: string };
    try {
      response = await postJson(
        `${this.#settings.url}/api/live/pi/events`,
        {
          Authorization: `Bearer ${this.#settings.token}`,
          "X-Pi-Playground-Connection": this.#connection,
        },
        body,
        this.#settings.requestTimeoutMs,
      );
    } catch (error) {
      this.#disconnected(
        `No playground answers at ${this.#settings.url} (${(error as Error).message}); pi carries on, and this session is sent once it does.`,
      );
      return "failed";
    }
    const text = response.text;
    // (A body that stalls is cut by the same timeout.)
    let json: { error?: string; maxEventBytes?: number } = {};
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      json = {};
    }
    if (response.ok) {
      if (typeof json.maxEventBytes === "number" && json.maxEventBytes > 0)
        this.#maxEventBytes = json.maxEventBytes;
      if (!this.#connected) {
        this.#connected = true;
        this.#said.delete("down");
        this.#said.delete("refused");
        this.#say("up", `This session is live in the playground at ${this.#settings.url}.`);
      }
      return "ok";
    }
    // The playground does not hold what this batch continues (it restarted): the whole session again.
    if (response.status === 409) return "resync";
    const reason = json.error ?? `status ${response.status}`;
    this.#disconnected(
      response.status === 401
        ? `The playground at ${this.#settings.url} refused this pi: ${reason} pi carries on without it.`
        : `The playground at ${this.#settings.url} did not take this session's events: ${reason} pi carries on.`,
      response.status === 401 ? "refused" : `status-${response.status}`,
    );
    return "failed";
  }

  #disconnected(message: string, key = "down"): void {
    if (this.#connected) this.#said.delete("up");
    this.#connected = false;
    this.#say(key, message);
  }

  /** Tell the person, once per kind of news: on stderr, or in pi's own interface when it has one. */
  #say(key: string, message: string, { always = false } = {}): void {
    if (!always && this.#said.has(key)) return;
    this.#said.add(key);
    const line = `[pi-playground] ${message}`;
    const ctx = this.#ctx;
    try {
      if (ctx?.mode === "tui" && ctx.hasUI) {
        ctx.ui.notify(line, "info");
        return;
      }
    } catch {
      // A stale context: fall back to stderr.
    }
    process.stderr.write(`${line}\n`);
  }
}

export default function playground(pi: ExtensionAPI): void {
  const settings = readSettings(process.env);
  let link: LiveLink | undefined;

  pi.on("session_start", (_event, ctx) => {
    link?.close();
    link = new LiveLink(pi, settings);
    link.start(ctx);
  });
  pi.on("session_shutdown", () => {
    link?.close();
    link = undefined;
  });

  // Session entries are read from pi's session whenever something happened; these only say when.
  const touch = () => link?.schedule();
  pi.on("message_end", touch);
  pi.on("turn_end", touch);
  pi.on("session_compact", touch);
  pi.on("session_tree", touch);
  pi.on("session_info_changed", touch);
  pi.on("model_select", touch);
  pi.on("thinking_level_select", touch);

  pi.on("agent_start", () => link?.enqueue({ type: "run", running: true }));
  pi.on("agent_settled", () => link?.enqueue({ type: "run", running: false }));
  pi.on("context_with_system", (event, ctx) => {
    link?.callStarted(event.messages, ctx);
  });
  pi.on("before_provider_request", async (event, ctx) => {
    await link?.payload(event.payload, ctx);
    return undefined;
  });
  pi.on("after_provider_response", (event) => link?.response(event.status, event.headers));
  pi.on("message_update", (event) => {
    if (event.message.role === "assistant") link?.token();
  });
  pi.on("message_end", (event) => {
    if (event.message.role === "assistant") link?.callEnded(event.message);
  });
  pi.on("tool_execution_start", (event) =>
    link?.enqueue({ type: "tool", phase: "start", toolCallId: event.toolCallId, toolName: event.toolName }),
  );
  pi.on("tool_execution_end", (event) =>
    link?.enqueue({
      type: "tool",
      phase: "end",
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      isError: event.isError,
      ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
    }),
  );
  pi.on("tool_call", async (event) => {
    const blocked = await link?.toolCall(event.toolCallId, event.toolName, event.input);
    return blocked ? { block: true, reason: blocked } : undefined;
  });
}
