import type {
  ControlCommand,
  LiveConnectInfo,
  LiveConnectionSummary,
} from "../../shared/live/live-protocol.ts";
import type { LiveFeed, LiveFeedHost } from "./live-feed.ts";
import { liveSessionId } from "./live-session-id.ts";

export type LiveSessionsHost = Omit<LiveFeedHost, "connections">;

/**
 * The running pi coding agents connected to this playground, as the page knows them: each connection's
 * status (live or ended, working or idle, control, the questions it waits on), the stored session it is
 * recorded in, and the way to control it. What reads them from the server and records them (LiveFeed)
 * loads after the first paint.
 */
export class LiveSessions {
  readonly #host: LiveSessionsHost;
  #feed: Promise<LiveFeed> | undefined;
  #connections = $state.raw<readonly LiveConnectionSummary[]>([]);

  constructor(host: LiveSessionsHost) {
    this.#host = host;
  }

  /** Start (or restart, at the server the page uses now) reading live sessions. */
  start(): void {
    void this.#loadFeed().then((feed) => feed.start());
  }

  get connections(): readonly LiveConnectionSummary[] {
    return this.#connections;
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
    return "This session is live: a pi coding agent writes its facts. It becomes an ordinary session when pi exits.";
  }

  /** The command that connects a pi to this playground (for "Connect pi"). */
  async connectInfo(): Promise<LiveConnectInfo> {
    return (await this.#loadFeed()).connectInfo();
  }

  /** A control command for a connection; false (and a notice saying why) when it was refused. */
  async control(connection: string, command: ControlCommand): Promise<boolean> {
    return (await this.#loadFeed()).control(connection, command);
  }

  #loadFeed(): Promise<LiveFeed> {
    this.#feed ??= import("./live-feed.ts").then(
      ({ LiveFeed }) =>
        new LiveFeed({
          ...this.#host,
          connections: (connections) => (this.#connections = connections),
        }),
    );
    // A chunk that failed to load (the server restarting) is loaded again on the next use.
    this.#feed.catch(() => (this.#feed = undefined));
    return this.#feed;
  }
}
