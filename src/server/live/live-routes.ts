import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../../shared/http-error.ts";
import { decodePathSegment } from "../../shared/payloads/payload-route.ts";
import type { LiveConnectInfo, LiveUpdate, PiCommand } from "../../shared/live/live-protocol.ts";
import type { JsonReplacer } from "../../shared/payloads/captured-json.ts";
import { readBody, sendJson } from "../http-utils.ts";
import type { Redactor } from "../redact.ts";
import { SECURITY_HEADERS } from "../security-headers.ts";
import { SseWriter } from "../sse-writer.ts";
import { parseBatch, parseControl } from "./live-batch.ts";
import { connectCommand, type LiveConfig } from "./live-config.ts";
import { LiveHub, type LiveSubscriber } from "./live-hub.ts";

/** The routes a pi's extension uses: its events in, the commands out. Paired by the token, never by Origin. */
export const PI_EVENTS_PATH = "/api/live/pi/events";
export const PI_COMMANDS_PATH = "/api/live/pi/commands";
/** The header the extension names its connection in, so that a flood is refused before its body is read. */
export const CONNECTION_HEADER = "x-pi-playground-connection";

/** The page's routes, behind the same origin and token guard as the proxy's. */
export const LIVE_PAGE_ROUTES: Readonly<Record<string, string>> = {
  "/api/live/events": "GET",
  "/api/live/connect": "GET",
  "/api/live/control": "POST",
};
const SESSION_PATH = /^\/api\/live\/sessions\/([^/]+)$/;

/** Whether `path` is a live session's route (`GET /api/live/sessions/:id`); its id is not read here. */
export function isLiveSessionRoute(path: string): boolean {
  return SESSION_PATH.test(path);
}

/** The session id a live session's route names, decoded (after the guards): 400 for malformed encoding. */
function liveSessionId(path: string): string | undefined {
  const segment = SESSION_PATH.exec(path)?.[1];
  return segment === undefined ? undefined : decodePathSegment(segment, "The live session id in the address");
}

export interface LiveRoutesOptions {
  config: LiveConfig;
  redactor: Pick<Redactor, "serialized" | "text">;
  scrubPayload: JsonReplacer;
  bodyIdleTimeoutMs: number;
  clientReadTimeoutMs: number;
  maxUnsentBytes: number;
  keepAliveMs: number;
  log: (line: string) => void;
}

export interface LiveRoutes {
  readonly hub: LiveHub;
  /** A pi's request (events or commands); the caller has checked Host. */
  pi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** A page's request; the caller has checked origin and token. */
  page(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

export function isPiRoute(path: string): boolean {
  return path === PI_EVENTS_PATH || path === PI_COMMANDS_PATH;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

const LOOPBACK_ADDRESS = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** A peer on this machine (IPv4 loopback, IPv6 loopback, or IPv4 loopback mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  return LOOPBACK_ADDRESS.test(address ?? "");
}

export function createLiveRoutes(options: LiveRoutesOptions): LiveRoutes {
  const { config } = options;
  const hub = new LiveHub(config.limits, {
    payload: options.scrubPayload,
    text: (text) => options.redactor.text(text),
  });
  const expected = digest(config.token);

  /** Only pi's extension may send events: from this machine (unless allowed), with the pairing token. */
  function checkPi(req: IncomingMessage): void {
    if (req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined) {
      throw new HttpError(403, "Live pi events come from pi's extension, never from a web page.");
    }
    if (!config.allowRemote && !isLoopbackAddress(req.socket.remoteAddress)) {
      throw new HttpError(
        403,
        "This playground takes live pi sessions from this machine only; start it with LIVE_ALLOW_REMOTE=1 to take them from others.",
      );
    }
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const challenge = { "WWW-Authenticate": "Bearer" };
    if (!match?.[1])
      throw new HttpError(
        401,
        "Missing pairing token: start pi with PI_PLAYGROUND_TOKEN set to the token this playground printed (npm start), or shows under Connect pi.",
        challenge,
      );
    // Compared as digests, so that neither the content nor the length of the token shows in the timing.
    if (!timingSafeEqual(digest(match[1]), expected))
      throw new HttpError(
        401,
        "Wrong pairing token: use the one this playground printed when it started (it changes at every start unless PI_PLAYGROUND_TOKEN is set for the playground too).",
        challenge,
      );
  }

  function openStream<T>(
    res: ServerResponse,
    maxUnsentBytes: number,
    frame: (message: T) => string,
    onDrop: (reason: string) => void,
  ): LiveSubscriber<T> & { writer: SseWriter } {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    res.flushHeaders();
    const writer = new SseWriter(res, {
      readTimeoutMs: options.clientReadTimeoutMs,
      maxUnsentBytes,
      onDrop,
    });
    const keepAlive = setInterval(() => void writer.write(": keepalive\n\n"), options.keepAliveMs);
    res.once("close", () => clearInterval(keepAlive));
    return {
      writer,
      send: (message) => void writer.write(`data: ${frame(message)}\n\n`),
      close: () => {
        clearInterval(keepAlive);
        writer.end();
      },
    };
  }

  async function pi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    checkPi(req);
    res.setHeader("Cache-Control", "no-store");
    if (path === PI_EVENTS_PATH) {
      if (req.method !== "POST") throw new HttpError(405, `${path} accepts POST only.`, { Allow: "POST" });
      const named = req.headers[CONNECTION_HEADER];
      hub.admit(typeof named === "string" ? named : undefined);
      const batch = parseBatch(await readBody(req, config.limits.maxEventBytes, options.bodyIdleTimeoutMs));
      if (typeof named === "string" && named !== batch.connection)
        throw new HttpError(
          400,
          `Malformed live event: the ${CONNECTION_HEADER} header names another connection than the batch.`,
        );
      sendJson(res, 200, hub.ingest(batch));
      return;
    }
    if (req.method !== "GET") throw new HttpError(405, `${path} accepts GET only.`, { Allow: "GET" });
    const connection = new URL(req.url ?? "/", "http://placeholder").searchParams.get("connection") ?? "";
    // The stream opens only once the hub takes the connection, so that a refusal is an ordinary error answer.
    const unsubscribe = hub.subscribeCommands(connection, () =>
      openStream<PiCommand>(
        res,
        options.maxUnsentBytes,
        (command) => JSON.stringify(command),
        (reason) => options.log(`let a pi's command stream go because ${reason}`),
      ),
    );
    res.once("close", unsubscribe);
  }

  async function page(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const redact = options.redactor.serialized;
    if (path === "/api/live/events") {
      const stream = openStream<LiveUpdate>(
        res,
        Math.max(options.maxUnsentBytes, config.limits.maxEventBytes * 4),
        (update) => redact(JSON.stringify(update)),
        (reason) => options.log(`let a page's live stream go because ${reason}`),
      );
      const unsubscribe = hub.subscribePage(stream);
      res.once("close", unsubscribe);
      return;
    }
    if (path === "/api/live/connect") {
      const url = `http://${req.headers.host ?? "127.0.0.1"}`;
      const info: LiveConnectInfo = {
        url,
        token: config.token,
        extensionPath: config.extensionPath,
        command: connectCommand(config, url),
        controlCommand: connectCommand(config, url, { control: true }),
      };
      sendJson(res, 200, info);
      return;
    }
    if (path === "/api/live/control") {
      const request = parseControl(
        await readBody(req, config.limits.maxEventBytes, options.bodyIdleTimeoutMs),
      );
      sendJson(res, 200, hub.control(request), {}, redact);
      return;
    }
    const id = liveSessionId(path);
    const state = id === undefined ? undefined : hub.state(id);
    if (!state) throw new HttpError(404, "No live pi session with this id (it ended and was let go).");
    sendJson(res, 200, state, {}, redact);
  }

  return { hub, pi, page };
}
