import type {
  ControlRequest,
  LiveConnectInfo,
  LiveConnectionState,
  LiveStatus,
  LiveUpdate,
} from "../../shared/live/live-protocol.ts";

/** The server the page reads live pi sessions from, and the token it takes. */
export interface LiveAccess {
  url: string;
  token: string;
}

export type ChannelState = "off" | "connecting" | "open" | "retrying";

export interface LiveChannelHost {
  /** Where to read from now; undefined while the page has no server (the offline models run in it). */
  access: () => LiveAccess | undefined;
  update: (update: LiveUpdate) => void;
  state?: (state: ChannelState) => void;
  /** The server refused the page's token (it restarted): the page should fetch a new one. */
  refused?: () => void;
  fetch?: typeof fetch;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;

/**
 * The page's side of the live channel: the server's stream of live pi sessions (`GET /api/live/events`,
 * read with fetch so that it carries the page's token), kept open and reopened after a failure with
 * backoff; and the requests that go with it. Each reopening starts with the list of connections, from
 * which the page catches up.
 */
export class LiveChannel {
  readonly #host: LiveChannelHost;
  readonly #fetch: typeof fetch;
  #abort: AbortController | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #retryMs = RETRY_MIN_MS;
  #stopped = true;

  constructor(host: LiveChannelHost) {
    this.#host = host;
    this.#fetch = host.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** (Re)open the stream, at the server `access` gives now. */
  start(): void {
    this.stop();
    this.#stopped = false;
    void this.#open();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#abort?.abort();
    this.#abort = undefined;
    this.#host.state?.("off");
  }

  async #open(): Promise<void> {
    const access = this.#host.access();
    if (!access) {
      this.#host.state?.("off");
      return;
    }
    const abort = new AbortController();
    this.#abort = abort;
    this.#host.state?.("connecting");
    try {
      const response = await this.#fetch(`${access.url}/api/live/events`, {
        headers: { Accept: "text/event-stream", Authorization: `Bearer ${access.token}` },
        signal: abort.signal,
      });
      if (response.status === 401) this.#host.refused?.();
      if (!response.ok || !response.body) throw new Error(`the server answered ${response.status}`);
      this.#host.state?.("open");
      this.#retryMs = RETRY_MIN_MS;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of frame.split("\n")) {
            if (!line.startsWith("data: ")) continue;
            this.#host.update(JSON.parse(line.slice(6)) as LiveUpdate);
          }
        }
      }
    } catch {
      // Gone, refused or cut: tried again below.
    }
    if (this.#stopped || abort.signal.aborted) return;
    this.#host.state?.("retrying");
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (!this.#stopped) void this.#open();
    }, this.#retryMs);
    this.#retryMs = Math.min(RETRY_MAX_MS, this.#retryMs * 2);
  }

  /** A connection's whole state (its entries and recorded calls); undefined when the server let it go. */
  async state(connection: string): Promise<LiveConnectionState | undefined> {
    const response = await this.#request(`/api/live/sessions/${encodeURIComponent(connection)}`);
    if (response.status === 404) return undefined;
    return (await readOk(response)) as LiveConnectionState;
  }

  async connectInfo(): Promise<LiveConnectInfo> {
    return (await readOk(await this.#request("/api/live/connect"))) as LiveConnectInfo;
  }

  /** A control command; throws with the server's sentence when it is refused. */
  async control(request: ControlRequest): Promise<LiveStatus> {
    const response = await this.#request("/api/live/control", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    return (await readOk(response)) as LiveStatus;
  }

  async #request(path: string, init: RequestInit = {}): Promise<Response> {
    const access = this.#host.access();
    if (!access) throw new Error("This page has no server, so it cannot reach a live pi.");
    return this.#fetch(`${access.url}${path}`, {
      ...init,
      headers: { Accept: "application/json", Authorization: `Bearer ${access.token}`, ...init.headers },
    });
  }
}

async function readOk(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  if (!response.ok)
    throw new Error(typeof body?.error === "string" ? body.error : `the server answered ${response.status}`);
  return body;
}
