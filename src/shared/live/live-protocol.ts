import type { Captured } from "../api-types.ts";

/**
 * Live pi sessions: the JSON a running pi coding agent's extension (src/pi-extension/) sends the server,
 * what the server sends the page about them, and the commands that go back. Types only, so the server,
 * the page and the extension (which imports them as types, erased when pi loads it) share one definition.
 *
 * The extension → server leg is `POST /api/live/pi/events` (a batch of events, paired by a token); the
 * server → extension leg, when pi allows control, is `GET /api/live/pi/commands` (server-sent events).
 * The page reads `GET /api/live/events` (server-sent events), `GET /api/live/sessions/:id` (a connection's
 * whole state) and `GET /api/live/connect` (the command that connects a pi), and sends
 * `POST /api/live/control`.
 */

/** What a pi tells about itself when its session starts (and again after every reconnect). */
export interface PiAbout {
  /** The folder pi works in. */
  cwd: string;
  pid: number;
  /** pi's mode: "tui", "rpc", "json" or "print". */
  mode: string;
  /** True when pi was started with PI_PLAYGROUND_CONTROL=1: the page may then switch control on. */
  control: boolean;
  /** Where pi writes the session, when it does (not with --no-session). */
  sessionFile?: string;
  /** How long pi waits for the page to approve a tool call or continue a paused call. */
  askTimeoutMs: number;
}

/** A provider's answer to a model call, as far as pi's `after_provider_response` hook sees it. */
export interface LiveResponse {
  status: number;
  /** The headers that matter (rate limits, request ids, retry hints), lower-cased. */
  headers: Record<string, string>;
}

/** One model call of a live pi, recorded by the extension from pi's hooks and sent when the call is over. */
export interface LiveCall {
  /** Chosen by the extension. */
  id: string;
  startedAt: number;
  provider: string;
  modelId: string;
  api: string;
  thinkingLevel?: string;
  /** The session's leaf when the request was built: the entries the call's context came from. */
  leafId: string | null;
  /** The entry pi stored the reply in. */
  replyEntryId?: string;
  /** The transcript pi sent, as its `context_with_system` hook saw it (AgentMessage[]). */
  transcript: Captured<unknown[]>;
  /** That transcript through pi's own `convertToLlm`: the model view as sent (Message[]). */
  messages: Captured<unknown[]>;
  /** For each of those messages, the transcript message it was converted from (by position). */
  messageSources?: number[];
  /** The exact provider payload, as `before_provider_request` saw it. */
  payload: Captured<unknown>;
  response?: LiveResponse;
  outcome: { stopReason: string; usage?: unknown; errorMessage?: string };
  timing: { firstTokenMs?: number; durationMs: number };
}

/** A question a live pi waits on while control is on: approve a tool call, or send a paused model call. */
export type LiveAsk =
  | {
      kind: "tool";
      /** The tool call's id. */
      id: string;
      toolName: string;
      args: unknown;
      askedAt: number;
      timeoutMs: number;
    }
  | {
      kind: "call";
      /** The model call's id (LiveCall.id). */
      id: string;
      provider: string;
      modelId: string;
      /** The exact request that waits. */
      payload: Captured<unknown>;
      askedAt: number;
      timeoutMs: number;
    };

export type IngestEvent =
  /** The session from its start: pi's header and every entry so far. Sent first, and after every reconnect. */
  | {
      type: "session";
      about: PiAbout;
      header: Record<string, unknown>;
      entries: unknown[];
      leafId: string | null;
    }
  /** Entries pi appended since; `from` is the index of the first (the count the server should have). */
  | { type: "entries"; from: number; entries: unknown[]; leafId: string | null }
  | { type: "call"; call: LiveCall }
  | {
      type: "tool";
      phase: "start" | "end";
      toolCallId: string;
      toolName: string;
      isError?: boolean;
      durationMs?: number;
    }
  /** pi started working (agent_start) or settled (agent_settled). */
  | { type: "run"; running: boolean }
  | { type: "ask"; ask: LiveAsk }
  /** A question was settled by pi's side: answered, timed out, or given up. */
  | { type: "settled"; id: string; outcome: string }
  | { type: "bye" };

export type IngestEventType = IngestEvent["type"];

export interface IngestBatch {
  /** Chosen by the extension for one pi session; a new session (or a new pi) is a new connection. */
  connection: string;
  /** Events the extension's bounded queue dropped so far, oldest first. */
  dropped: number;
  events: IngestEvent[];
}

/** The server's answer to a batch: the limits the extension keeps its events within. */
export interface IngestAccepted {
  ok: true;
  maxEventBytes: number;
}

/** Which questions pi asks the page before acting, while control is on. */
export interface LiveGates {
  /** Ask before every tool call runs. */
  tools: boolean;
  /** Pause before every model call is sent. */
  calls: boolean;
}

export interface LiveControlState {
  /** pi allows control (PI_PLAYGROUND_CONTROL=1). */
  allowed: boolean;
  /** The page switched control on for this connection. */
  on: boolean;
  gates: LiveGates;
}

/** A message the page injects into pi, as pi's `sendMessage` takes it. */
export interface LiveInjection {
  customType: string;
  content: string | unknown[];
  display: boolean;
  details?: unknown;
}

export type DeliverAs = "steer" | "followUp" | "nextTurn";

/** What the page sends (`POST /api/live/control`, with the connection's id). */
export type ControlCommand =
  | { type: "control"; on: boolean }
  | { type: "gates"; gates: LiveGates }
  | { type: "inject"; message: LiveInjection; deliverAs: DeliverAs }
  | { type: "answer"; id: string; approve: boolean; reason?: string }
  | { type: "abort" };

export interface ControlRequest {
  connection: string;
  command: ControlCommand;
}

/** What the extension hears (`GET /api/live/pi/commands`): the control state first, then commands. */
export type PiCommand =
  | { type: "state"; control: LiveControlState }
  | Exclude<ControlCommand, { type: "control" } | { type: "gates" }>;

/** How a connection stands, as the page shows it. */
export interface LiveStatus {
  state: "connected" | "ended";
  /** Why it ended: pi said goodbye, or went silent. */
  endedReason?: string;
  /** pi is working on a run. */
  running: boolean;
  /** The tool that runs now, if one does. */
  tool?: string;
  /** Events the extension dropped because the playground could not take them (oldest first). */
  dropped: number;
  /** Recorded calls the server let go of to stay within its memory limit (the page had them, or not). */
  callsDropped: number;
  control: LiveControlState;
  /** Questions pi waits on. */
  asks: LiveAsk[];
  lastSeen: number;
}

/** A connection as the page first hears of it (`GET /api/live/sessions/:id` adds its entries and calls). */
export interface LiveConnectionSummary {
  id: string;
  about: PiAbout;
  header: Record<string, unknown>;
  status: LiveStatus;
}

export interface LiveConnectionState extends LiveConnectionSummary {
  entries: unknown[];
  leafId: string | null;
  calls: LiveCall[];
}

/** `GET /api/live/events`: a list first, then changes. */
export type LiveUpdate =
  | { type: "connections"; connections: LiveConnectionSummary[] }
  /** A new connection, or a connection whose pi started another session (its entries start over). */
  | { type: "connection"; connection: LiveConnectionSummary }
  | { type: "entries"; connection: string; from: number; entries: unknown[]; leafId: string | null }
  | { type: "call"; connection: string; call: LiveCall }
  | { type: "status"; connection: string; status: LiveStatus }
  | { type: "gone"; connection: string };

/** `GET /api/live/connect`: how to connect a pi to this playground. */
export interface LiveConnectInfo {
  url: string;
  token: string;
  extensionPath: string;
  /** The command to paste, with and without control. */
  command: string;
  controlCommand: string;
}
