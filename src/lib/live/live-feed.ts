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
import type { LiveRecorder } from "./live-recorder.ts";

export interface LiveFeedHost {
  /** Where the page's server is, and its token (the proxy connection's). */
  access: () => LiveAccess | undefined;
  /** The page's token was refused: look for the server again. */
  refused: () => void;
  store: SessionStore;
  notices: Notices;
  hasModel: (ref: ModelRef) => boolean;
  /** The connections as they stand now (the page's state is written here and nowhere else). */
  connections: (connections: readonly LiveConnectionSummary[]) => void;
  /** Whether the page reads the server's live sessions right now. */
  state?: (state: ChannelState) => void;
  locks?: LockManager | undefined;
  fetch?: typeof fetch;
}

/** The Web Lock whose holder records live sessions: one tab at a time, the next takes over when it closes. */
const RECORDER_LOCK = "pi-playground:live-recorder";

/**
 * The mechanics behind LiveSessions, loaded after the first paint: the server's stream of live pi
 * sessions, the requests that control them, and the recording of each into a stored session (one tab
 * records, see LiveRecorder; every tab shows).
 */
export class LiveFeed {
  readonly #host: LiveFeedHost;
  readonly #channel: LiveChannel;
  /** Loaded with the first live pi this tab records: a page without one never loads it. */
  #recorder: Promise<LiveRecorder> | undefined;
  /** Its own channel, so that this tab's workspace hears the recorder's writes as other tabs do. */
  readonly #tabs = new TabChannel();
  #connections: readonly LiveConnectionSummary[] = [];
  #recording = false;
  /** Status updates the stream brought so far: a control answer older than the latest is not applied. */
  #statusesHeard = 0;

  constructor(host: LiveFeedHost) {
    this.#host = host;
    this.#channel = new LiveChannel({
      access: host.access,
      update: (update) => this.#update(update),
      ...(host.state ? { state: host.state } : {}),
      refused: host.refused,
      ...(host.fetch ? { fetch: host.fetch } : {}),
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

  connectInfo(): Promise<LiveConnectInfo> {
    return this.#channel.connectInfo();
  }

  /** A control command for a connection; false (and a notice saying why) when it was refused. */
  async control(connection: string, command: ControlCommand): Promise<boolean> {
    const heard = this.#statusesHeard;
    try {
      const status = await this.#channel.control({ connection, command });
      // The stream tells every change too, and may have told a later one (pi settled the question this
      // command raised) before this answer arrived: the answer's status is then older than the page's.
      if (this.#statusesHeard === heard) this.#setStatus(connection, status);
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
    for (const connection of this.#connections) this.#record((recorder) => recorder.sync(connection));
  }

  /**
   * Hand an update to the recorder when this tab records, in the order the updates came (one promise, its
   * callbacks run in order).
   */
  #record(work: (recorder: LiveRecorder) => unknown): void {
    if (!this.#recording) return;
    this.#recorder ??= this.#loadRecorder();
    void this.#recorder.then(work, () => undefined);
  }

  #loadRecorder(): Promise<LiveRecorder> {
    const host = this.#host;
    const loading = import("./live-recorder.ts").then(
      ({ LiveRecorder }) =>
        new LiveRecorder({
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
        }),
    );
    loading.catch((error: unknown) => {
      // Loaded again with the next update (a chunk can fail to load while the server restarts).
      this.#recorder = undefined;
      host.notices.post({
        key: "live:record",
        severity: "warning",
        source: "live",
        text: `Live pi sessions cannot be recorded in this tab: ${(error as Error).message}`,
      });
    });
    return loading;
  }

  #update(update: LiveUpdate): void {
    switch (update.type) {
      case "connections":
        this.#set(update.connections);
        for (const connection of update.connections) this.#record((recorder) => recorder.sync(connection));
        return;
      case "connection": {
        const others = this.#connections.filter((connection) => connection.id !== update.connection.id);
        this.#set([...others, update.connection]);
        this.#record((recorder) => recorder.sync(update.connection));
        return;
      }
      case "entries":
        this.#record((recorder) =>
          recorder.entries(update.connection, update.from, update.entries, update.leafId),
        );
        return;
      case "call":
        this.#record((recorder) => recorder.call(update.connection, update.call));
        return;
      case "status":
        this.#statusesHeard++;
        this.#setStatus(update.connection, update.status);
        return;
      case "gone":
        this.#set(this.#connections.filter((connection) => connection.id !== update.connection));
        if (this.#recorder) this.#record((recorder) => recorder.forget(update.connection));
        return;
    }
  }

  #setStatus(id: string, status: LiveStatus): void {
    this.#set(
      this.#connections.map((connection) => (connection.id === id ? { ...connection, status } : connection)),
    );
  }

  #set(connections: readonly LiveConnectionSummary[]): void {
    this.#connections = connections;
    this.#host.connections(connections);
  }
}
