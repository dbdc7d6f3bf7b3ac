import { streamProxy, type StreamFn } from "@earendil-works/pi-agent-core";
import {
  createAssistantMessageEventStream,
  type Api,
  type AssistantMessage,
  type Message,
  type Model,
} from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../shared/api-types.ts";
import { takesMirrorSpeed } from "../../shared/mirror/mirror-id.ts";
import { mirrorSpeedOptions, type MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { withFetch } from "./scoped-fetch.ts";

/** Exactly what the stream function sent in its last request, captured there rather than recomputed. */
export interface RecordedRequest {
  messages: readonly Message[];
  provider: string;
  modelId: string;
  api: string;
  reasoning: string | undefined;
  /** The serializable options the proxy receives (what `streamProxy` puts in the request body). */
  options: Record<string, unknown>;
  /** Where the request went: a proxy's address, or "in the page" for the offline models answered here. */
  proxyUrl: string;
  inPage: boolean;
  at: number;
}

/** What goes to the proxy of the stream options: the serializable ones, as `streamProxy` sends them. */
const SENT_OPTIONS = [
  "temperature",
  "maxTokens",
  "reasoning",
  "cacheRetention",
  "sessionId",
  "thinkingBudgets",
  "transport",
  "maxRetryDelayMs",
] as const;

function sentOptions(options: Record<string, unknown> | undefined): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const key of SENT_OPTIONS) if (options?.[key] !== undefined) sent[key] = options[key];
  return sent;
}

/** Where one request goes: a proxy's address and token, and what answers it when not the network. */
export interface StreamRoute {
  proxyUrl: string;
  authToken: string;
  /** Answers the request in the page (the offline models) instead of the network. */
  transport?: typeof fetch;
  /** How the reply ended: a refused token or a proxy that went away changes where the next one goes. */
  settled(message: AssistantMessage): void;
  /** A proxy (or the page) answered the request of this call id: it keeps the call's provider payload. */
  sent?(callId: string): void;
}

/** A request to preview: what the stream function would send for the next call (`/api/stream`'s body). */
export interface PreviewRequest {
  model: Pick<Model<Api>, "provider" | "id">;
  context: { messages: readonly Message[] };
  options?: Record<string, unknown>;
}

/**
 * The request the stream function would send for this model, messages and stream options, as `/api/preview`
 * takes it: the same model reference, `context.messages` and options `/api/stream` receives.
 */
export function previewRequestFor(
  model: Pick<Model<Api>, "provider" | "id">,
  messages: readonly Message[],
  streamOptions: Record<string, unknown>,
): PreviewRequest {
  return {
    model: { provider: model.provider, id: model.id },
    context: { messages },
    options: sentOptions(streamOptions),
  };
}

/** The body of `POST /api/preview` for a request: shaped as `/api/stream`'s, which the proxy parses alike. */
export function previewBody(request: PreviewRequest): string {
  return JSON.stringify({
    model: { provider: request.model.provider, id: request.model.id },
    context: { messages: request.context.messages },
    options: request.options ?? {},
  });
}

export interface StreamRouter {
  route(model: Model<Api>): Promise<StreamRoute>;
  /** The provider payload of a call this router sent, from whichever proxy (or the page) answered it. */
  payload?(callId: string): Promise<PayloadResponse>;
  /** The payload the provider would receive for this request now; nothing is sent to it. */
  preview?(request: PreviewRequest): Promise<PayloadResponse>;
}

export interface ProxyStreamOptions {
  router: StreamRouter;
  /** Called as each request leaves; returns an id for the call, which the proxy files its payload under. */
  onRequest: (request: RecordedRequest) => string | void;
  /** A proxy (or the page) answered the request of this call: it has the call's payload to give. */
  onAnswered?: (callId: string) => void;
  /** The pace chosen for the offline models, sent with each of their requests. */
  mirrorSpeed?: () => MirrorSpeed | undefined;
}

/**
 * The Agent's stream function: pi's `streamProxy`, speaking the proxy protocol to the proxy the router
 * chose, or to the proxy's routes answered in the page; the request is recorded for the inspector.
 * Whatever fails before the request becomes an in-band error, as the StreamFn contract requires.
 */
export function createProxyStreamFn(options: ProxyStreamOptions): StreamFn {
  return async (model, context, streamOptions) => {
    let route: StreamRoute;
    try {
      route = await options.router.route(model);
    } catch (error) {
      return failedStream(model, `The request could not be sent: ${(error as Error).message}`);
    }
    const pace = takesMirrorSpeed(model) ? mirrorSpeedOptions(options.mirrorSpeed?.()) : {};
    const callId = options.onRequest({
      messages: context.messages.slice(),
      provider: model.provider,
      modelId: model.id,
      api: model.api,
      reasoning: streamOptions?.reasoning,
      options: { ...sentOptions(streamOptions as Record<string, unknown> | undefined), ...pace },
      proxyUrl: route.proxyUrl,
      inPage: route.transport !== undefined,
      at: Date.now(),
    });
    // The call's id rides in the metadata, which the proxy reads and never forwards to a provider.
    const metadata =
      callId || pace.metadata
        ? { ...streamOptions?.metadata, ...pace.metadata, ...(callId ? { callId } : {}) }
        : streamOptions?.metadata;
    const send = () =>
      streamProxy(model, context, {
        ...streamOptions,
        ...(metadata ? { metadata } : {}),
        proxyUrl: route.proxyUrl,
        authToken: route.authToken,
      });
    // The route learns of the call once a proxy answered it: a request stopped before that reached no
    // proxy, and no proxy has a payload to ask for.
    const transport = route.transport ?? globalThis.fetch.bind(globalThis);
    const answered: typeof fetch = async (input, init) => {
      const response = await transport(input, init);
      if (callId) {
        route.sent?.(callId);
        options.onAnswered?.(callId);
      }
      return response;
    };
    let stream: ReturnType<typeof streamProxy>;
    try {
      stream = withFetch(answered, send);
    } catch (error) {
      return failedStream(model, (error as Error).message);
    }
    void stream.result().then((message) => route.settled(message));
    return stream;
  };
}

function failedStream(model: Model<Api>, errorMessage: string) {
  const stream = createAssistantMessageEventStream();
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: zeroUsage(),
    stopReason: "error",
    errorMessage,
    timestamp: Date.now(),
  };
  stream.push({ type: "error", reason: "error", error: message });
  stream.end();
  return stream;
}
