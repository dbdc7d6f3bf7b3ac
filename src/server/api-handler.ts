import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import type { Api, Model } from "@earendil-works/pi-ai";
import type { SessionResponse } from "../shared/api-types.ts";
import { HttpError } from "../shared/http-error.ts";
import { readBody, sendError, sendJson, sendRawJson } from "./http-utils.ts";
import type { ModelRegistry } from "./model-registry.ts";
import {
  describeAbort,
  isTerminal,
  proxyError,
  proxyEventStream,
  sseFrame,
  type ProxyErrorEvent,
} from "../shared/proxy-events.ts";
import { SseWriter } from "./sse-writer.ts";
import { ReplyScrubber } from "./reply-scrubber.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";
import { checkToken, createOriginGuard } from "./request-guard.ts";
import { parseStreamRequest, type StreamRequest } from "../shared/stream-request.ts";
import { captureJson, payloadResponseJson, type StoredPayload } from "../shared/payloads/captured-json.ts";
import { capturePayload, missingPayloadReason } from "../shared/payloads/call-capture.ts";
import { answerPayload, decodeCallId, PREVIEW_PATH } from "../shared/payloads/payload-route.ts";
import { answerPreflight, apiPath, needsToken, routeOf } from "./api-routes.ts";
import type { LiveConfig } from "./live/live-config.ts";
import { createLiveRoutes, isPiRoute } from "./live/live-routes.ts";
import { DEFAULT_PAYLOAD_LIMITS, PayloadStore } from "../shared/payloads/payload-store.ts";
import { previewPayload } from "../shared/payloads/preview.ts";
import { MIRROR_PROVIDER_ID } from "../shared/mirror/mirror-id.ts";
import { mirrorSpeedOptions } from "../shared/mirror/mirror-speed.ts";
import { describeUpstreamError } from "./upstream-errors.ts";
import { payloadReplacer } from "./payload-redaction.ts";
import { displayUrl } from "../shared/url-secrets.ts";
import { formatDuration } from "./format-duration.ts";
import { BodyBudget } from "./body-budget.ts";
import { formatBytes } from "../shared/bytes.ts";

export interface ApiOptions {
  registry: ModelRegistry;
  /** Previews (`/api/preview`) built at once; past it, 429. Each holds its body and the payload it builds. */
  maxConcurrentPreviews?: number;
  /** Per-start secret the page must present on `/api/stream`. */
  token: string;
  /**
   * Whether `/api/session` hands the token to pages of this server's own origin (`npm start`, `npm run dev`:
   * the page reads it there). The standalone proxy serves no page: it hands the token to nobody, and every
   * route wants it. Default true.
   */
  handsOutToken?: boolean;
  /** Host names this server answers to, and those a reverse proxy in front of it answers to (see request-guard). */
  hostnames: readonly string[];
  proxiedHostnames?: readonly string[];
  /** Origins of pages served elsewhere that may use this proxy with its token (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  maxBodyBytes: number;
  /** Request bodies of all requests held at once, from their first byte to the end of their answer; past it, 429. */
  maxHeldBodyBytes?: number;
  maxConcurrentStreams: number;
  /** Abort an upstream that sends nothing for this long, and tell the client why. */
  upstreamIdleTimeoutMs: number;
  /** Refuse a request body that goes silent for this long (408). */
  bodyIdleTimeoutMs: number;
  /** Drop a client that has read nothing from a full socket for this long, and abort its upstream. */
  clientReadTimeoutMs: number;
  /** Drop a client this many bytes behind the stream, and abort its upstream. */
  maxUnsentBytes: number;
  /** Interval of SSE comment lines that keep idle connections open through proxies. */
  keepAliveMs: number;
  /** Provider payloads kept for the page: per payload, all together (0: none), and for how long. */
  maxPayloadCaptureBytes?: number;
  maxPayloadStoreBytes?: number;
  payloadTtlMs?: number;
  /** Live pi sessions: the pairing token and limits of their ingest (absent: no live routes). */
  live?: LiveConfig;
  /** The clock payloads age by (tests move it). */
  now?: () => number;
  log: (line: string) => void;
}

export type ApiHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

export const DEFAULT_LIMITS = {
  maxBodyBytes: 20 * 1024 * 1024,
  /** Four bodies of the largest size; with a larger MAX_BODY_BYTES, four of those (see proxyConfig). */
  maxHeldBodyBytes: 80 * 1024 * 1024,
  maxConcurrentStreams: 4,
  maxConcurrentPreviews: 2,
  upstreamIdleTimeoutMs: 120_000,
  bodyIdleTimeoutMs: 10_000,
  clientReadTimeoutMs: 30_000,
  maxUnsentBytes: 4 * 1024 * 1024,
  keepAliveMs: 15_000,
  maxPayloadCaptureBytes: DEFAULT_PAYLOAD_LIMITS.maxPayloadBytes,
  maxPayloadStoreBytes: DEFAULT_PAYLOAD_LIMITS.maxStoreBytes,
  payloadTtlMs: DEFAULT_PAYLOAD_LIMITS.ttlMs,
} as const;

export function createToken(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * The proxy as a plain Node request handler, so Vite's dev and preview servers or any Node server can
 * host it. Requests outside `/api/` are passed to `next`.
 */
export function createApiHandler(options: ApiOptions): ApiHandler {
  let activeStreams = 0;
  let activePreviews = 0;
  const heldBodies = new BodyBudget(
    Math.max(options.maxHeldBodyBytes ?? DEFAULT_LIMITS.maxHeldBodyBytes, options.maxBodyBytes),
  );
  const maxConcurrentPreviews = options.maxConcurrentPreviews ?? DEFAULT_LIMITS.maxConcurrentPreviews;
  const checkOrigin = createOriginGuard(options);
  const payloads = new PayloadStore(
    {
      maxPayloadBytes: options.maxPayloadCaptureBytes ?? DEFAULT_LIMITS.maxPayloadCaptureBytes,
      maxStoreBytes: options.maxPayloadStoreBytes ?? DEFAULT_LIMITS.maxPayloadStoreBytes,
      ttlMs: options.payloadTtlMs ?? DEFAULT_LIMITS.payloadTtlMs,
    },
    options.now,
  );
  // Every payload that is kept or previewed is scrubbed by this one replacer.
  const scrubPayload = payloadReplacer(options.registry.redactor);
  const live = options.live
    ? createLiveRoutes({
        config: options.live,
        redactor: options.registry.redactor,
        scrubPayload,
        bodyIdleTimeoutMs: options.bodyIdleTimeoutMs,
        clientReadTimeoutMs: options.clientReadTimeoutMs,
        maxUnsentBytes: options.maxUnsentBytes,
        keepAliveMs: options.keepAliveMs,
        log: options.log,
      })
    : undefined;

  async function route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (live && isPiRoute(path)) {
      // pi's extension: Host checked as for any request; the live routes refuse pages and want the pairing token.
      const access = checkOrigin(req);
      if (!access.ok) throw access.error;
      await live.pi(req, res, path);
      return;
    }
    const target = live || !path.startsWith("/api/live/") ? routeOf(path) : undefined;
    if (!target) throw new HttpError(404, `No such API endpoint: ${path}`);
    const { method, callIdSegment } = target;
    // Answers differ by Origin (CORS headers, refusals): no cache may hand one origin's answer to another.
    res.setHeader("Vary", "Origin");
    const access = checkOrigin(req);
    if (!access.ok) throw access.error;
    const { crossOrigin } = access;
    if (crossOrigin !== undefined) {
      // CORS exactly as wide as ALLOWED_ORIGINS: the one listed origin that asked, never a wildcard.
      res.setHeader("Access-Control-Allow-Origin", crossOrigin);
      res.setHeader("Access-Control-Expose-Headers", "Retry-After");
      if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
        answerPreflight(req, res, method);
        return;
      }
    }
    if (req.method !== method) throw new HttpError(405, `${path} accepts ${method} only.`, { Allow: method });

    // A page on a listed origin brings the token on every route: it cannot read it from /api/session. Nor
    // can anyone on the standalone proxy, which has no page of its own to give it to.
    const handsOutToken = options.handsOutToken ?? true;
    if (!handsOutToken || crossOrigin !== undefined || needsToken(path) || callIdSegment !== undefined) {
      const source = handsOutToken && crossOrigin === undefined ? "session" : "operator";
      const unauthorized = checkToken(req, options.token, source);
      if (unauthorized) throw unauthorized;
    }
    if (path === "/api/session") {
      const body: SessionResponse = handsOutToken
        ? { token: options.token, maxBodyBytes: options.maxBodyBytes }
        : { maxBodyBytes: options.maxBodyBytes };
      sendJson(res, 200, body);
      return;
    }
    if (path === "/api/models") {
      sendJson(res, 200, await options.registry.list(), {}, options.registry.redactor.serialized);
      return;
    }
    // Past the guards: only now is the address read (a malformed id is a 400 saying why).
    if (callIdSegment !== undefined) {
      const body = await answerPayload(payloads, decodeCallId(callIdSegment), (provider, id) =>
        options.registry.endpoint(provider, id),
      );
      sendRawJson(res, 200, body);
      return;
    }
    if (path === PREVIEW_PATH) {
      // As for streams, the body is read and checked before a slot is taken; building a large payload
      // takes memory and the event loop, so only a few are built at once.
      const { request, model } = await readRequest(req, res);
      if (activePreviews >= maxConcurrentPreviews) {
        throw new HttpError(
          429,
          `Too many previews at once: this proxy builds ${maxConcurrentPreviews} concurrently (MAX_CONCURRENT_PREVIEWS). Wait for one to finish, then retry.`,
          { "Retry-After": "1" },
        );
      }
      activePreviews++;
      try {
        await preview(res, request, model);
      } finally {
        activePreviews--;
      }
      return;
    }
    if (live && path.startsWith("/api/live/")) {
      await live.page(req, res, path);
      return;
    }
    // The body is read and checked before a stream slot is taken: slow uploads must not hold the slots.
    const { request, model } = await readRequest(req, res);
    if (activeStreams >= options.maxConcurrentStreams) {
      throw new HttpError(
        429,
        `Too many streams at once: this proxy serves ${options.maxConcurrentStreams} concurrently. Wait for a reply to finish, then retry.`,
        { "Retry-After": "1" },
      );
    }
    activeStreams++;
    try {
      await stream(res, request, model);
    } finally {
      activeStreams--;
    }
  }

  async function readRequest(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ request: StreamRequest; model: Model<Api> }> {
    // The body is held (as bytes, text and parsed values) until the answer ends: so long it counts.
    const share = heldBodies.open();
    res.once("close", () => share.release());
    const busy = () =>
      new HttpError(
        429,
        `Too many large requests at once: this proxy holds at most ${formatBytes(heldBodies.limit)} of request bodies at a time (MAX_HELD_BODY_BYTES). Wait for one to finish, then retry.`,
        { "Retry-After": "1", Connection: "close" },
      );
    const raw = await readBody(req, options.maxBodyBytes, options.bodyIdleTimeoutMs, { share, busy });
    const request = parseStreamRequest(raw);
    const model = options.registry.resolve(request.provider, request.modelId);
    if (!model) {
      throw new HttpError(
        400,
        `Unknown model: ${request.provider}/${request.modelId} is not served by this proxy.`,
      );
    }
    return { request, model };
  }

  /** Why an upstream error happened, in the words the page shows (and without secrets). */
  function describeFailure(model: Model<Api>, errorMessage: string | undefined): string {
    return options.registry.redactor.text(
      describeUpstreamError(errorMessage, model.provider, displayUrl(model.baseUrl)),
    );
  }

  /**
   * `POST /api/preview`: the payload the provider would receive for this body, built by its real adapter
   * and stopped before any request is made (see previewPayload). Nothing is kept.
   */
  async function preview(res: ServerResponse, request: StreamRequest, model: Model<Api>): Promise<void> {
    const endpoint = await options.registry.endpoint(model.provider, model.id);
    const missing = await options.registry.missingCredentials(model.provider);
    let payload: StoredPayload;
    if (missing) {
      payload = {
        kept: "none",
        bytes: 0,
        reason: `no request can be built: ${options.registry.redactor.text(missing)}`,
      };
    } else {
      const gone = new AbortController();
      res.on("close", () => gone.abort());
      // An adapter that never builds its body (an auth refresh that hangs) is given up like a stalled upstream.
      const timer = setTimeout(() => gone.abort(), options.upstreamIdleTimeoutMs);
      try {
        const result = await previewPayload(
          (target, context, streamOptions) =>
            options.registry.models.streamSimple(target, context, streamOptions),
          model,
          request.messages,
          request.options,
          gone.signal,
        );
        payload = result.built
          ? captureJson(result.payload, payloads.limits.maxPayloadBytes, scrubPayload)
          : {
              kept: "none",
              bytes: 0,
              reason: `the provider failed before building its request: ${describeFailure(model, result.reply.errorMessage ?? result.reply.stopReason)}`,
            };
      } finally {
        clearTimeout(timer);
      }
    }
    sendRawJson(res, 200, payloadResponseJson(payload, endpoint));
  }

  async function stream(res: ServerResponse, request: StreamRequest, model: Model<Api>): Promise<void> {
    const { callId } = request;
    const capture = callId
      ? capturePayload(payloads, callId, { provider: model.provider, modelId: model.id }, scrubPayload)
      : {};

    const upstream = new AbortController();
    // Provider SDKs attach several abort listeners per request; that is expected, not a leak.
    setMaxListeners(50, upstream.signal);
    let finished = false;
    res.on("close", () => {
      if (!finished) upstream.abort();
    });
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "text/event-stream; charset=utf-8",
      // Replies may quote anything the person sent: no cache may keep them.
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    res.flushHeaders();

    const redactor = options.registry.redactor;
    const writer = new SseWriter(res, {
      readTimeoutMs: options.clientReadTimeoutMs,
      maxUnsentBytes: options.maxUnsentBytes,
      onDrop: (reason) => {
        upstream.abort();
        options.log(`let a client go because ${reason}; its upstream request was aborted`);
      },
    });
    // The offline models' replies are made from the request alone: nothing of the server's is in them, so
    // their deltas are not held back (that would only slow a paced reply down).
    const scrubber = model.provider === MIRROR_PROVIDER_ID ? undefined : new ReplyScrubber(redactor);
    // Everything sent leaves through here: deltas are scrubbed across event boundaries, error texts of
    // URL credentials, and every frame, whatever field a secret hides in, once it is serialized.
    // Returns a promise only when the writer asks for a turn of the event loop (see SseWriter.write).
    const write = (event: ProxyAssistantMessageEvent): Promise<void> | undefined => {
      const scrubbed =
        event.type === "error" && event.errorMessage !== undefined
          ? { ...event, errorMessage: redactor.text(event.errorMessage) }
          : event;
      if (callId && isTerminal(scrubbed)) payloads.settle(callId, missingPayloadReason(scrubbed));
      let turn: Promise<void> | undefined;
      for (const out of scrubber ? scrubber.scrub(scrubbed) : [scrubbed])
        turn = writer.write(redactor.serialized(sseFrame(out))) ?? turn;
      return turn;
    };

    const keepAlive = setInterval(() => void writer.write(": keepalive\n\n"), options.keepAliveMs);
    let stalled = false;
    let idleTimer: NodeJS.Timeout | undefined;
    // One timer for the whole stream, pushed back on each event rather than replaced.
    const armIdleTimer = () => {
      if (idleTimer) {
        idleTimer.refresh();
        return;
      }
      idleTimer = setTimeout(() => {
        stalled = true;
        upstream.abort();
      }, options.upstreamIdleTimeoutMs);
    };

    try {
      const missing = await options.registry.missingCredentials(model.provider);
      if (missing) {
        if (callId)
          payloads.settle(callId, `no request was built: ${options.registry.redactor.text(missing)}`);
        await write(proxyError(missing));
        return;
      }
      armIdleTimer();
      const events = options.registry.models.streamSimple(
        model,
        { messages: request.messages },
        {
          ...request.options,
          ...capture,
          // The offline models' pace; no other provider is ever given metadata from the page.
          ...(model.provider === MIRROR_PROVIDER_ID ? mirrorSpeedOptions(request.mirrorSpeed) : {}),
          signal: upstream.signal,
        },
      );
      const idle = `The provider sent nothing for ${formatDuration(options.upstreamIdleTimeoutMs)}, so the proxy gave up on it.`;
      const describe = (event: ProxyErrorEvent): ProxyErrorEvent =>
        stalled
          ? { ...event, reason: "error", errorMessage: idle }
          : event.reason === "aborted"
            ? describeAbort(event)
            : { ...event, errorMessage: describeFailure(model, event.errorMessage) };
      for await (const proxyEvent of proxyEventStream(events, describe)) {
        armIdleTimer();
        const turn = write(proxyEvent);
        if (turn) await turn;
      }
    } catch (error) {
      await write(proxyError(`The proxy failed while streaming: ${(error as Error).message}`));
    } finally {
      finished = true;
      clearInterval(keepAlive);
      clearTimeout(idleTimer);
      writer.end();
    }
  }

  return (req, res, next) => {
    const path = apiPath(req.url);
    if (path === undefined) {
      if (next) next();
      else sendError(res, new HttpError(404, "Not found"));
      return;
    }
    route(req, res, path).catch((error: unknown) => {
      const redact = options.registry.redactor.serialized;
      if (error instanceof HttpError) {
        // An oversized or stalled body is not read to its end: answer, then drop the connection.
        if (error.status === 413 || error.status === 408) res.once("finish", () => req.destroy());
        sendError(res, error, redact);
        return;
      }
      options.log(`api error on ${req.method} ${path}: ${(error as Error).stack ?? String(error)}`);
      sendError(
        res,
        new HttpError(
          500,
          `Internal proxy error: ${options.registry.redactor.text((error as Error).message)}`,
        ),
        redact,
      );
    });
  };
}
