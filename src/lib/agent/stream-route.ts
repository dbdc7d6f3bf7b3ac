import type { Api, AssistantMessage, Message, Model } from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../shared/api-types.ts";

// The stream function's contracts and the preview's request, apart from the stream function itself: the
// connection builds previews with them and stays out of the Agent's chunk (pi's streamProxy and its parsers).

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

/**
 * What goes to the proxy of the stream options: the serializable ones, exactly as pi's `streamProxy` puts
 * them in its request body (its `buildProxyRequestOptions`, which pi does not export). `stream-route.test.ts`
 * runs pi's own `streamProxy` and fails when the two differ, for any options.
 */
export const SENT_OPTIONS = [
  "temperature",
  "samplingParams",
  "maxTokens",
  "reasoning",
  "cacheRetention",
  "sessionId",
  "disableContinuation",
  "headers",
  "metadata",
  "transport",
  "thinkingBudgets",
  "maxRetryDelayMs",
] as const;

export function sentOptions(options: Record<string, unknown> | undefined): Record<string, unknown> {
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
