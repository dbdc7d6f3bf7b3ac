import type {
  ControlCommand,
  LiveConnectInfo,
  LiveConnectionSummary,
  LiveStatus,
  LiveUpdate,
} from "../../shared/live/live-protocol.ts";
import type { ModelRef } from "../models/model-ref.ts";
import type { Notices } from "../notices/notices.svelte.ts";
import type { SessionStore } from "../storage/session-store.ts";
import { TabChannel } from "../storage/tab-sync.ts";
import { LiveChannel, type ChannelState, type LiveAccess } from "./live-channel.ts";
import { liveSessionId } from "./live-record.ts";
import { LiveRecorder } from "./live-recorder.ts";

export interface LiveSessionsHost {
  /** Where the page's server is, and its token (the proxy connection's). */
  access: () => LiveAccess | undefined;
  /** The page's token was refused: look for the server again. */
  refused: () => void;
  store: SessionStore;
  notices: Notices;
  hasModel: (ref: ModelRef) => boolean;
  locks?: LockManager | undefined;
  fetch?: typeof fetch;
}

/** The Web Lock whose holder records live sessions: one tab at a time, the next takes over when it closes. */
const RECORDER_LOCK = "pi-playground:live-recorder";

/**
 * The running pi coding agents connected to this playground, as the page knows them: each connection's
 * status (live or ended, working or idle, control, the questions it waits on), the stored session it is
 * recorded in, and the way to control it. One tab records (see LiveRecorder); every tab shows.
 */
export class LiveSessions {
  readonly #host: LiveSessionsHost;
  readonly #channel: LiveChannel;
  readonly #recorder: LiveRecorder;
  /** Its own channel, so that this tab's workspace hears the recorder's writes as other tabs do. */
  readonly #tabs = new TabChannel();
  #connections = $state.raw<readonly LiveConnectionSummary[]>([]);
  #state = $state<ChannelState>("off");
  #recording = false;

  constructor(host: LiveSessionsHost) {
    this.#host = host;
    this.#channel = new LiveChannel({
      access: host.access,
      update: (update) => this.#update(update),
      state: (state) => (this.#state = state),
      refused: host.refused,
      ...(host.fetch ? { fetch: host.fetch } : {}),
    });
    this.#recorder = new LiveRecorder({
      store: host.store,
      post: (message) => this.#tabs.post(message),
      fetchState: (connection) => this.#channel.state(connection),
      hasModel: host.hasModel,
      failed: (connection, error) =>
        host.notices.post({
          key: `live:record:${connection}`,
          severity: "warning",
          source: "live",
          text: `A live pi session could not be recorded here: ${error.message}`,
        }),
    });
  }

  /** Start (or restart, at the server the page uses now) reading live sessions, and try to be the recorder. */
  start(): void {
    this.#channel.start();
    this.#claimRecording();
  }

  stop(): void {
    this.#channel.stop();
  }

  get connections(): readonly LiveConnectionSummary[] {
    return this.#connections;
  }

  /** Whether the page is reading the server's live sessions right now. */
  get channelState(): ChannelState {
    return this.#state;
  }

  /** The connection a stored session is recorded from: a live one first, else the last that ended. */
  connectionOf(sessionId: string): LiveConnectionSummary | undefined {
    const mine = this.#connections.filter((connection) => liveSessionId(connection.header) === sessionId);
    return mine.find((connection) => connection.status.state === "connected") ?? mine.at(-1);
  }

  /** Why a session is read-only here: a live pi writes it. Undefined once pi is gone (an ordinary session). */
  readOnlyReason(sessionId: string): string | undefined {
    const connection = this.connectionOf(sessionId);
    if (connection?.status.state !== "connected") return undefined;
    return `This session is live: pi coding agent (in ${connection.about.cwd}) writes its facts, and the page shows them as they come. It becomes an ordinary session when pi exits.`;
  }

  /** The command that connects a pi to this playground (for "Connect pi"). */
  connectInfo(): Promise<LiveConnectInfo> {
    return this.#channel.connectInfo();
  }

  /** A control command for a connection; false (and a notice saying why) when it was refused. */
  async control(connection: string, command: ControlCommand): Promise<boolean> {
    try {
      const status = await this.#channel.control({ connection, command });
      this.#setStatus(connection, status);
      this.#host.notices.dismiss(`live:control:${connection}`);
      return true;
    } catch (error) {
      this.#host.notices.post({
        key: `live:control:${connection}`,
        severity: "warning",
        source: "live",
        text: (error as Error).message,
      });
      return false;
    }
  }

  #claimRecording(): void {
    const locks = this.#host.locks ?? globalThis.navigator?.locks;
    if (this.#recording) return;
    if (!locks) {
      this.#startRecording();
      return;
    }
    // Held for as long as this page lives; another tab's request waits in line and takes over when it closes.
    void locks
      .request(RECORDER_LOCK, () => {
        this.#startRecording();
        return new Promise<void>(() => undefined);
      })
      .catch(() => undefined);
  }

  #startRecording(): void {
    this.#recording = true;
    for (const connection of this.#connections) void this.#recorder.sync(connection);
  }

  #update(update: LiveUpdate): void {
    switch (update.type) {
      case "connections":
        this.#connections = update.connections;
        if (this.#recording)
          for (const connection of update.connections) void this.#recorder.sync(connection);
        return;
      case "connection": {
        const others = this.#connections.filter((connection) => connection.id !== update.connection.id);
        this.#connections = [...others, update.connection];
        if (this.#recording) void this.#recorder.sync(update.connection);
        return;
      }
      case "entries":
        if (this.#recording)
          void this.#recorder.entries(update.connection, update.from, update.entries, update.leafId);
        return;
      case "call":
        if (this.#recording) void this.#recorder.call(update.connection, update.call);
        return;
      case "status":
        this.#setStatus(update.connection, update.status);
        return;
      case "gone":
        this.#connections = this.#connections.filter((connection) => connection.id !== update.connection);
        this.#recorder.forget(update.connection);
        return;
    }
  }

  #setStatus(id: string, status: LiveStatus): void {
    this.#connections = this.#connections.map((connection) =>
      connection.id === id ? { ...connection, status } : connection,
    );
  }
}
