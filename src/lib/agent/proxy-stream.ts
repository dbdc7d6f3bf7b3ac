import { streamProxy, type StreamFn } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import type { SessionResponse } from "../../shared/api-types.ts";

/** Exactly what the stream function sent in its last request, captured there rather than recomputed. */
export interface RecordedRequest {
  messages: readonly Message[];
  provider: string;
  modelId: string;
  api: string;
  reasoning: string | undefined;
  /** The serializable options the proxy receives (what `streamProxy` puts in the request body). */
  options: Record<string, unknown>;
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

/**
 * The per-start token of the local proxy, read from the page's own origin. A restarted server issues a
 * new token; after a 401 the cached one is dropped so that Retry picks up the new one.
 */
export class ProxyToken {
  readonly #origin: string;
  #token: Promise<string> | undefined;

  constructor(origin: string) {
    this.#origin = origin;
  }

  get(): Promise<string> {
    this.#token ??= fetch(`${this.#origin}/api/session`, { headers: { Accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`the proxy answered ${response.status} to /api/session`);
        return ((await response.json()) as SessionResponse).token;
      })
      .catch((error: unknown) => {
        this.#token = undefined;
        throw error;
      });
    return this.#token;
  }

  invalidate(): void {
    this.#token = undefined;
  }
}

export interface ProxyStreamOptions {
  proxyUrl: string;
  token: ProxyToken;
  /** Called as each request leaves; returns an id for the call, which the proxy files its payload under. */
  onRequest: (request: RecordedRequest) => string | void;
}

/**
 * The Agent's stream function: pi's `streamProxy` pointed at this page's own origin, with the request
 * recorded for the inspector. A token that cannot be fetched becomes an in-band error, as the StreamFn
 * contract requires, instead of a throw.
 */
export function createProxyStreamFn(options: ProxyStreamOptions): StreamFn {
  return async (model, context, streamOptions) => {
    let authToken: string;
    try {
      authToken = await options.token.get();
    } catch {
      // The proxy will answer 401 and the chat shows it with Retry.
      authToken = "";
    }
    const callId = options.onRequest({
      messages: context.messages.slice(),
      provider: model.provider,
      modelId: model.id,
      api: model.api,
      reasoning: streamOptions?.reasoning,
      options: sentOptions(streamOptions as Record<string, unknown> | undefined),
      at: Date.now(),
    });
    const metadata = callId ? { ...streamOptions?.metadata, callId } : streamOptions?.metadata;
    const stream = streamProxy(model, context, {
      ...streamOptions,
      ...(metadata ? { metadata } : {}),
      proxyUrl: options.proxyUrl,
      authToken,
    });
    void stream.result().then((message) => {
      if (message.stopReason === "error" && /proxy token/i.test(message.errorMessage ?? ""))
        options.token.invalidate();
    });
    return stream;
  };
}
