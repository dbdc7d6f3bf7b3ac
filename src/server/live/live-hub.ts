import { HttpError } from "../../shared/http-error.ts";
import { formatBytes } from "../../shared/bytes.ts";
import type { JsonReplacer } from "../../shared/payloads/captured-json.ts";
import type { Captured } from "../../shared/api-types.ts";
import type {
  ControlRequest,
  IngestAccepted,
  IngestBatch,
  IngestEvent,
  LiveCall,
  LiveConnectionState,
  LiveConnectionSummary,
  LiveControlState,
  LiveStatus,
  LiveUpdate,
  PiAbout,
  PiCommand,
} from "../../shared/live/live-protocol.ts";
import { formatDuration } from "../format-duration.ts";
import type { LiveLimits } from "./live-config.ts";

/** Where updates go: a page's event stream, or a pi's command stream. */
export interface LiveSubscriber<T> {
  send(message: T): void;
  close(): void;
}

export interface LiveScrub {
  /** Applied to every provider payload kept or shown, as the proxy scrubs its own. */
  payload: JsonReplacer;
  /** Applied to response header values. */
  text: (text: string) => string;
}

const CREDENTIAL_HEADER = /authorization|api[-_]?key|cookie|token|secret/i;

interface Connection {
  id: string;
  about: PiAbout;
  header: Record<string, unknown>;
  entries: unknown[];
  entryBytes: number;
  leafId: string | null;
  calls: { call: LiveCall; bytes: number }[];
  callBytes: number;
  status: LiveStatus;
  bucket: { tokens: number; at: number };
  commands: Set<LiveSubscriber<PiCommand>>;
  goneTimer?: NodeJS.Timeout;
  endedAt?: number;
}

/** How long a pi's link may be down before the session counts as ended (a reconnect within it is a blip). */
const GONE_GRACE_MS = 2000;

/**
 * The live pi sessions this server knows: what each pi sent (its session's header and entries, its
 * recorded calls, how it stands), the pages that watch, and the control each page may have. Every limit
 * is per connection, so one flooding or oversized pi never costs another its place.
 */
export class LiveHub {
  readonly limits: LiveLimits;
  readonly #scrub: LiveScrub;
  readonly #now: () => number;
  readonly #connections = new Map<string, Connection>();
  readonly #pages = new Set<LiveSubscriber<LiveUpdate>>();
  /** Introductions (a first batch from a connection not known yet) share one bucket. */
  readonly #introductions: { tokens: number; at: number };
  #sweeper: NodeJS.Timeout | undefined;

  constructor(limits: LiveLimits, scrub: LiveScrub, now: () => number = Date.now) {
    this.limits = limits;
    this.#scrub = scrub;
    this.#now = now;
    this.#introductions = { tokens: this.#burst, at: now() };
  }

  get #burst(): number {
    return this.limits.maxRequestsPerSecond * 2;
  }

  /** Checks the clock for pis gone silent and ended sessions past their time; started with the first pi. */
  #startSweeper(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(() => this.sweep(), Math.min(1000, this.limits.idleTimeoutMs / 4));
    this.#sweeper.unref();
  }

  close(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    for (const page of this.#pages) page.close();
    for (const connection of this.#connections.values())
      for (const stream of connection.commands) stream.close();
  }

  // --- from pi -----------------------------------------------------------------------------------------

  /**
   * A request from a pi is about to be read: refused with 429 when its connection (or, for one not known
   * yet, all introductions together) sends faster than the limit.
   */
  admit(connectionId: string | undefined): void {
    const known = connectionId === undefined ? undefined : this.#connections.get(connectionId);
    const bucket = known?.bucket ?? this.#introductions;
    const now = this.#now();
    const rate = this.limits.maxRequestsPerSecond;
    bucket.tokens = Math.min(this.#burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) {
      throw new HttpError(
        429,
        `Too many live events: a pi may send ${rate} requests a second (LIVE_MAX_REQUESTS_PER_SECOND). Wait, then send again.`,
        { "Retry-After": "1" },
      );
    }
    bucket.tokens -= 1;
  }

  /** A pi's batch, checked by parseBatch: kept, and passed on to the pages that watch. */
  ingest(batch: IngestBatch): IngestAccepted {
    const existing = this.#connections.get(batch.connection);
    this.#checkOrder(batch, existing);
    let connection = existing;
    for (const event of batch.events) {
      if (event.type === "session") connection = this.#session(batch.connection, event, connection);
      else if (connection) this.#apply(connection, event);
    }
    if (connection) {
      connection.status.lastSeen = this.#now();
      if (connection.status.state === "ended" && !batch.events.some((event) => event.type === "bye")) {
        // A pi that went silent (a suspended laptop) and came back: live again.
        connection.status = { ...connection.status, state: "connected" };
        delete connection.status.endedReason;
        delete connection.endedAt;
        this.#status(connection);
      }
      if (connection.status.dropped !== batch.dropped) {
        connection.status = { ...connection.status, dropped: batch.dropped };
        this.#status(connection);
      }
    }
    return { ok: true, maxEventBytes: this.limits.maxEventBytes };
  }

  /** A batch must fit what the server holds: a known connection, entries that continue where it is. */
  #checkOrder(batch: IngestBatch, existing: Connection | undefined): void {
    let count = existing?.entries.length;
    for (const event of batch.events) {
      if (event.type === "session") count = event.entries.length;
      else if (count === undefined)
        throw new HttpError(
          409,
          "This playground does not know this pi session (it restarted, or let it go): send the whole session again.",
          {},
        );
      else if (event.type === "entries") {
        if (event.from !== count)
          throw new HttpError(
            409,
            `These entries start at ${event.from}, but the playground holds ${count}: send the whole session again.`,
          );
        count += event.entries.length;
      }
    }
  }

  #session(
    id: string,
    event: Extract<IngestEvent, { type: "session" }>,
    existing: Connection | undefined,
  ): Connection {
    if (!existing) {
      this.#makeRoom();
      this.#startSweeper();
    }
    const entryBytes = jsonBytes(event.entries);
    this.#checkMemory(entryBytes, id);
    const connection: Connection = existing ?? {
      id,
      about: event.about,
      header: event.header,
      entries: [],
      entryBytes: 0,
      leafId: null,
      calls: [],
      callBytes: 0,
      status: {
        state: "connected",
        running: false,
        dropped: 0,
        callsDropped: 0,
        control: { allowed: event.about.control, on: false, gates: { tools: false, calls: false } },
        asks: [],
        lastSeen: this.#now(),
      },
      bucket: { tokens: this.#burst, at: this.#now() },
      commands: new Set(),
    };
    connection.about = event.about;
    connection.header = event.header;
    connection.entries = [...event.entries];
    connection.entryBytes = entryBytes;
    connection.leafId = event.leafId;
    connection.status.control = { ...connection.status.control, allowed: event.about.control };
    if (!event.about.control) connection.status.control = closedControl(false);
    this.#connections.set(id, connection);
    this.#trimCalls(connection);
    this.#broadcast({ type: "connection", connection: summary(connection) });
    return connection;
  }

  /** A new pi takes the place of the oldest ended session when the server holds as many as it may. */
  #makeRoom(): void {
    if (this.#connections.size < this.limits.maxConnections) return;
    const ended = [...this.#connections.values()]
      .filter((connection) => connection.status.state === "ended")
      .sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0))[0];
    if (ended) {
      this.#remove(ended);
      return;
    }
    throw new HttpError(
      429,
      `This playground shows ${this.limits.maxConnections} live pi sessions at once (LIVE_MAX_CONNECTIONS); end one, or raise the limit.`,
      { "Retry-After": "5" },
    );
  }

  #checkMemory(entryBytes: number, _id: string): void {
    if (entryBytes <= this.limits.maxConnectionBytes) return;
    throw new HttpError(
      413,
      `This pi session's entries take ${formatBytes(entryBytes)}, more than the ${formatBytes(this.limits.maxConnectionBytes)} the playground keeps of one live pi (LIVE_MAX_CONNECTION_BYTES).`,
    );
  }

  #apply(connection: Connection, event: IngestEvent): void {
    switch (event.type) {
      case "session":
        return;
      case "entries": {
        const bytes = jsonBytes(event.entries);
        this.#checkMemory(connection.entryBytes + bytes, connection.id);
        connection.entries.push(...event.entries);
        connection.entryBytes += bytes;
        connection.leafId = event.leafId;
        this.#trimCalls(connection);
        this.#broadcast({
          type: "entries",
          connection: connection.id,
          from: connection.entries.length - event.entries.length,
          entries: event.entries,
          leafId: event.leafId,
        });
        return;
      }
      case "call": {
        const call = this.#scrubCall(event.call);
        const bytes = jsonBytes(call);
        connection.calls.push({ call, bytes });
        connection.callBytes += bytes;
        this.#trimCalls(connection);
        this.#broadcast({ type: "call", connection: connection.id, call });
        return;
      }
      case "tool": {
        const { tool: _tool, ...rest } = connection.status;
        connection.status = event.phase === "start" ? { ...rest, tool: event.toolName } : rest;
        this.#status(connection);
        return;
      }
      case "run":
        connection.status = { ...connection.status, running: event.running };
        if (!event.running) delete connection.status.tool;
        this.#status(connection);
        return;
      case "ask": {
        const ask =
          event.ask.kind === "call"
            ? { ...event.ask, payload: this.#scrubPart(event.ask.payload) }
            : event.ask;
        connection.status = {
          ...connection.status,
          asks: [...connection.status.asks.filter((other) => other.id !== ask.id), ask],
        };
        this.#status(connection);
        return;
      }
      case "settled":
        this.#settle(connection, event.id);
        return;
      case "bye":
        this.#end(connection, "pi's session ended");
        return;
    }
  }

  #settle(connection: Connection, askId: string): void {
    if (!connection.status.asks.some((ask) => ask.id === askId)) return;
    connection.status = {
      ...connection.status,
      asks: connection.status.asks.filter((ask) => ask.id !== askId),
    };
    this.#status(connection);
  }

  /** The oldest recorded calls go first when a session outgrows its memory; its entries never do. */
  #trimCalls(connection: Connection): void {
    let dropped = 0;
    while (connection.entryBytes + connection.callBytes > this.limits.maxConnectionBytes) {
      const oldest = connection.calls.shift();
      if (!oldest) break;
      connection.callBytes -= oldest.bytes;
      dropped++;
    }
    if (dropped > 0) {
      connection.status = { ...connection.status, callsDropped: connection.status.callsDropped + dropped };
      this.#status(connection);
    }
  }

  #scrubPart<T>(part: Captured<T>): Captured<T> {
    if (part.kept !== "all") return part;
    return { ...part, value: JSON.parse(JSON.stringify(part.value, this.#scrub.payload) ?? "null") as T };
  }

  #scrubCall(call: LiveCall): LiveCall {
    const response = call.response;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response?.headers ?? {})) {
      if (!CREDENTIAL_HEADER.test(name)) headers[name.toLowerCase()] = this.#scrub.text(value);
    }
    return {
      ...call,
      payload: this.#scrubPart(call.payload),
      ...(response ? { response: { status: response.status, headers } } : {}),
    };
  }

  /** A pi that said goodbye, or went silent: its session stays, for the pages that have not recorded it. */
  #end(connection: Connection, reason: string): void {
    if (connection.status.state === "ended") return;
    connection.endedAt = this.#now();
    connection.status = {
      ...connection.status,
      state: "ended",
      endedReason: reason,
      running: false,
      asks: [],
      control: closedControl(connection.status.control.allowed),
    };
    delete connection.status.tool;
    for (const stream of connection.commands) stream.close();
    connection.commands.clear();
    this.#status(connection);
  }

  #remove(connection: Connection): void {
    this.#connections.delete(connection.id);
    for (const stream of connection.commands) stream.close();
    this.#broadcast({ type: "gone", connection: connection.id });
  }

  /** Ends the pis that went silent and forgets ended sessions past their time. */
  sweep(): void {
    const now = this.#now();
    for (const connection of [...this.#connections.values()]) {
      if (
        connection.status.state === "connected" &&
        now - connection.status.lastSeen > this.limits.idleTimeoutMs
      )
        this.#end(
          connection,
          `pi stopped answering (nothing for ${formatDuration(this.limits.idleTimeoutMs)})`,
        );
      else if (connection.endedAt !== undefined && now - connection.endedAt > this.limits.endedTtlMs)
        this.#remove(connection);
    }
  }

  /** pi's command stream: the control state first, then what the page asks of it. */
  subscribeCommands(connectionId: string, open: () => LiveSubscriber<PiCommand>): () => void {
    const connection = this.#connections.get(connectionId);
    if (!connection || connection.status.state === "ended")
      throw new HttpError(
        404,
        "This playground holds no live session for this connection: send the session first.",
      );
    const stream = open();
    connection.commands.add(stream);
    clearTimeout(connection.goneTimer);
    stream.send({ type: "state", control: connection.status.control });
    return () => {
      connection.commands.delete(stream);
      // pi keeps this stream open while it runs: when the last one closes, pi has most likely exited. A
      // reconnect within the grace period (a network blip) keeps the session live.
      if (connection.commands.size > 0 || connection.status.state === "ended") return;
      clearTimeout(connection.goneTimer);
      connection.goneTimer = setTimeout(() => {
        if (connection.commands.size === 0) this.#end(connection, "its connection closed");
      }, GONE_GRACE_MS);
      connection.goneTimer.unref();
    };
  }

  // --- for the page ----------------------------------------------------------------------------------

  subscribePage(page: LiveSubscriber<LiveUpdate>): () => void {
    this.#pages.add(page);
    page.send({ type: "connections", connections: [...this.#connections.values()].map(summary) });
    return () => this.#pages.delete(page);
  }

  /** A connection's whole state: what a page records. */
  state(connectionId: string): LiveConnectionState | undefined {
    const connection = this.#connections.get(connectionId);
    if (!connection) return undefined;
    return {
      ...summary(connection),
      entries: connection.entries,
      leafId: connection.leafId,
      calls: connection.calls.map((item) => item.call),
    };
  }

  /** A command from the page. Nothing reaches pi unless pi allows control and the page switched it on. */
  control({ connection: id, command }: ControlRequest): LiveStatus {
    const connection = this.#connections.get(id);
    if (!connection) throw new HttpError(404, "No live pi session with this id (it ended and was let go).");
    if (connection.status.state === "ended")
      throw new HttpError(409, "This pi session has ended: there is nothing left to control.");
    const control = connection.status.control;
    if (command.type === "control") {
      if (command.on && !control.allowed)
        throw new HttpError(
          403,
          "This pi was started without PI_PLAYGROUND_CONTROL=1, so it cannot be controlled from the playground. Restart it with that variable to allow it.",
        );
      this.#setControl(connection, command.on ? { ...control, on: true } : closedControl(control.allowed));
      if (!command.on) connection.status = { ...connection.status, asks: [] };
      this.#status(connection);
      return connection.status;
    }
    if (!control.on) throw new HttpError(403, "Control is off for this pi: switch it on in the page first.");
    if (command.type === "gates") {
      this.#setControl(connection, { ...control, gates: command.gates });
      this.#status(connection);
      return connection.status;
    }
    if (connection.commands.size === 0)
      throw new HttpError(
        409,
        "pi is not listening for commands right now (it is reconnecting); try again in a moment.",
      );
    if (command.type === "answer") {
      if (!connection.status.asks.some((ask) => ask.id === command.id))
        throw new HttpError(409, "pi no longer waits on that question (it was answered, or timed out).");
      this.#send(connection, command);
      this.#settle(connection, command.id);
      return connection.status;
    }
    this.#send(connection, command);
    return connection.status;
  }

  #setControl(connection: Connection, control: LiveControlState): void {
    connection.status = { ...connection.status, control };
    this.#send(connection, { type: "state", control });
  }

  #send(connection: Connection, command: PiCommand): void {
    for (const stream of connection.commands) stream.send(command);
  }

  #status(connection: Connection): void {
    this.#broadcast({ type: "status", connection: connection.id, status: connection.status });
  }

  #broadcast(update: LiveUpdate): void {
    for (const page of this.#pages) page.send(update);
  }
}

function closedControl(allowed: boolean): LiveControlState {
  return { allowed, on: false, gates: { tools: false, calls: false } };
}

function summary(connection: Connection): LiveConnectionSummary {
  return { id: connection.id, about: connection.about, header: connection.header, status: connection.status };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}
