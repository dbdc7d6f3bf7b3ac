import { streamProxy, type StreamFn } from "@earendil-works/pi-agent-core";
import {
  createAssistantMessageEventStream,
  type Api,
  type AssistantMessage,
  type Message,
  type Model,
  type TranscriptContext,
} from "@earendil-works/pi-ai";
import { takesMirrorSpeed } from "../../shared/mirror/mirror-id.ts";
import { mirrorSpeedOptions, type MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { samplingOptions } from "../../shared/sampling-params.ts";
import type { Sampling } from "../../shared/sampling.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { blobComposer, warmBlobComposerWhenIdle } from "./blob-composer.ts";
import { messagesJsonParts } from "./request-body.ts";
import { yieldToPage } from "./yield-to-page.ts";
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
  warmBlobComposerWhenIdle();
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
    // The messages' JSON, from cached chunks and the rest serialized a slice at a time (request-body.ts):
    // pi's streamProxy would serialize the whole context in one task on the page's thread.
    // Each step in a task of its own: what the Agent and the session did to build the request (the click's
    // task), serializing, and sending would otherwise add up in one task in a large session.
    let messagesJson: BlobPart[];
    try {
      await yieldToPage();
      messagesJson = await messagesJsonParts(context.messages);
      await yieldToPage();
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
    // Recording the call traces every message of the request to its fact: at 100,000 facts a walk as long
    // as composing the body's Blob, so the body is composed and sent in the next task.
    await yieldToPage();
    // The call's id rides in the metadata, which the proxy reads and never forwards to a provider.
    const metadata = callId ? { ...paced, callId } : paced;
    const placeholder = messagesPlaceholder();
    const send = () =>
      streamProxy(model, placeholder.in(context), {
        ...sent,
        ...(metadata ? { metadata } : {}),
        proxyUrl: route.proxyUrl,
        authToken: route.authToken,
      });
    // The route learns of the call once a proxy answered it: a request stopped before that reached no
    // proxy, and no proxy has a payload to ask for.
    const transport = route.transport ?? globalThis.fetch.bind(globalThis);
    const answered: typeof fetch = async (input, init) => {
      const parts = typeof init?.body === "string" ? placeholder.replace(init.body, messagesJson) : undefined;
      if (parts === undefined)
        throw new Error("The request's body was not the JSON the stream function expects.");
      // Composed in a worker (blob-composer.ts): on the page's thread, the send's longest task.
      const body = await blobComposer.compose(parts);
      const response = await transport(input, { ...init, body });
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

/**
 * pi's streamProxy writes the request body as `JSON.stringify({ model, context, options })`. Given a context
 * whose `messages` serialize to a unique placeholder string (an array's `toJSON`), its body has the
 * placeholder where the messages' JSON goes, and the body sent is that string with the placeholder replaced
 * by the messages' parts (`replace` gives the body's parts, composed into a Blob by blob-composer.ts): byte
 * for byte what pi would send (request-body.test.ts checks it against pi's own streamProxy). pi does not
 * promise that it serializes the context with JSON.stringify (which honours toJSON), nor that the context
 * goes nowhere else; a body without the placeholder exactly once fails.
 */
function messagesPlaceholder() {
  const text = `pi-playground:messages:${crypto.randomUUID()}`;
  const quoted = JSON.stringify(text);
  return {
    in(context: TranscriptContext): TranscriptContext {
      const messages = Object.assign(new Array<Message>(), { toJSON: () => text });
      return { ...context, messages };
    },
    replace(body: string, messagesJson: readonly BlobPart[]): BlobPart[] | undefined {
      const at = body.indexOf(quoted);
      if (at === -1 || body.indexOf(quoted, at + 1) !== -1) return undefined;
      return [body.slice(0, at), ...messagesJson, body.slice(at + quoted.length)];
    },
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
