import { streamProxy, type StreamFn } from "@earendil-works/pi-agent-core";
import {
  createAssistantMessageEventStream,
  type Api,
  type AssistantMessage,
  type Model,
} from "@earendil-works/pi-ai";
import { takesMirrorSpeed } from "../../shared/mirror/mirror-id.ts";
import { mirrorSpeedOptions, type MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { samplingOptions } from "../../shared/sampling-params.ts";
import type { Sampling } from "../../shared/sampling.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { withFetch } from "./scoped-fetch.ts";
import { sentOptions, type RecordedRequest, type StreamRoute, type StreamRouter } from "./stream-route.ts";

export interface ProxyStreamOptions {
  router: StreamRouter;
  /** Called as each request leaves; returns an id for the call, which the proxy files its payload under. */
  onRequest: (request: RecordedRequest) => string | void;
  /** A proxy (or the page) answered the request of this call: it has the call's payload to give. */
  onAnswered?: (callId: string) => void;
  /** The pace chosen for the offline models, sent with each of their requests. */
  mirrorSpeed?: () => MirrorSpeed | undefined;
  /** The session's sampling, of which each request carries what its model's API takes. */
  sampling?: () => Sampling;
}

/**
 * The Agent's stream function: pi's `streamProxy`, speaking the proxy protocol to the proxy the router
 * chose, or to the proxy's routes answered in the page; the request is recorded for the inspector.
 * Whatever fails before the request becomes an in-band error, as the StreamFn contract requires.
 */
export function createProxyStreamFn(options: ProxyStreamOptions): StreamFn {
  return async (model, context, agentOptions) => {
    // pi's Agent carries no sampling: the session's is added to every request here, where it is sent.
    const streamOptions = options.sampling
      ? { ...agentOptions, ...samplingOptions(options.sampling(), model.api) }
      : agentOptions;
    let route: StreamRoute;
    try {
      route = await options.router.route(model);
    } catch (error) {
      return failedStream(model, `The request could not be sent: ${(error as Error).message}`);
    }
    const pace = takesMirrorSpeed(model) ? mirrorSpeedOptions(options.mirrorSpeed?.()) : {};
    const paced = pace.metadata ? { ...streamOptions?.metadata, ...pace.metadata } : streamOptions?.metadata;
    const sent = { ...streamOptions, ...(paced ? { metadata: paced } : {}) };
    const callId = options.onRequest({
      messages: context.messages.slice(),
      provider: model.provider,
      modelId: model.id,
      api: model.api,
      reasoning: streamOptions?.reasoning,
      // As the request carries them, but for the call's id, which names the record itself.
      options: sentOptions(sent),
      proxyUrl: route.proxyUrl,
      inPage: route.transport !== undefined,
      at: Date.now(),
    });
    // The call's id rides in the metadata, which the proxy reads and never forwards to a provider.
    const metadata = callId ? { ...paced, callId } : paced;
    const send = () =>
      streamProxy(model, context, {
        ...sent,
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
