import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { createModels, type MutableModels } from "@earendil-works/pi-ai";
import type { ModelsResponse } from "../api-types.ts";
import { HttpError } from "../http-error.ts";
import { availableModelInfos } from "../model-info.ts";
import { captureJson, payloadResponseJson } from "../payloads/captured-json.ts";
import { capturePayload, settlingPayload } from "../payloads/call-capture.ts";
import { answerPayload } from "../payloads/payload-route.ts";
import { DEFAULT_PAYLOAD_LIMITS, PayloadStore, type PayloadLimits } from "../payloads/payload-store.ts";
import { previewPayload } from "../payloads/preview.ts";
import { proxyEventStream } from "../proxy-events.ts";
import { parseStreamRequest, type StreamRequest } from "../stream-request.ts";
import { createMirrorProvider } from "./mirror-provider.ts";
import { mirrorSpeedOptions } from "./mirror-speed.ts";

export interface MirrorApiOptions {
  /** The sentence a request for any other model gets: why only the offline models answer here. */
  describeUnknownModel: (provider: string, id: string) => string;
  /** How much of the payloads of recent calls is kept (the proxy's defaults unless given). */
  payloadLimits?: PayloadLimits;
}

/**
 * The proxy's API for the offline models alone, without HTTP: what answers `GET /api/models`,
 * `POST /api/stream`, `GET /api/calls/:callId/payload` and `POST /api/preview` when no proxy is reachable.
 * It resolves, streams, maps events and keeps payloads with the same code as the proxy (the mirror
 * provider, `parseStreamRequest`, `proxyEventStream`, the payload store), so a reply is the same event for
 * event whichever side produced it, and so is its payload.
 */
export class MirrorApi {
  readonly #models: MutableModels;
  readonly #options: MirrorApiOptions;
  readonly #payloads: PayloadStore;

  constructor(options: MirrorApiOptions) {
    this.#options = options;
    // No environment and no files: the mirror needs no credentials, and there is nothing else to find.
    this.#models = createModels({
      authContext: { env: async () => undefined, fileExists: async () => false },
    });
    this.#models.setProvider(createMirrorProvider());
    this.#payloads = new PayloadStore(options.payloadLimits ?? DEFAULT_PAYLOAD_LIMITS);
  }

  async listModels(): Promise<ModelsResponse> {
    return { models: await availableModelInfos(this.#models), warnings: [] };
  }

  /**
   * Check a `/api/stream` body and start its reply. Bad input throws an HttpError before anything
   * streams, exactly where the proxy answers with a status instead of an event stream.
   */
  stream(body: string, signal: AbortSignal): AsyncGenerator<ProxyAssistantMessageEvent, void, undefined> {
    const request = parseStreamRequest(body);
    const model = this.#model(request);
    const { callId } = request;
    const capture = callId
      ? capturePayload(this.#payloads, callId, { provider: model.provider, modelId: model.id })
      : {};
    const events = proxyEventStream(
      this.#models.streamSimple(
        model,
        { messages: request.messages },
        { ...request.options, ...capture, ...mirrorSpeedOptions(request.mirrorSpeed), signal },
      ),
    );
    return callId ? settlingPayload(this.#payloads, callId, events) : events;
  }

  /** The JSON answer of `GET /api/calls/:callId/payload`; 404 (an HttpError) for a call not kept here. */
  payload(callId: string): Promise<string> {
    // The offline models have no network address: no endpoint to describe.
    return answerPayload(this.#payloads, callId, async () => undefined);
  }

  /** The JSON answer of `POST /api/preview`: the payload the mirror would receive for this body now. */
  async preview(body: string, signal?: AbortSignal): Promise<string> {
    const request = parseStreamRequest(body);
    const model = this.#model(request);
    const result = await previewPayload(
      (target, context, options) => this.#models.streamSimple(target, context, options),
      model,
      request.messages,
      request.options,
      signal,
    );
    return payloadResponseJson(
      result.built
        ? captureJson(result.payload, this.#payloads.limits.maxPayloadBytes)
        : {
            kept: "none",
            bytes: 0,
            reason: `the provider failed before building its request: ${result.reply.errorMessage ?? result.reply.stopReason}`,
          },
    );
  }

  #model(request: StreamRequest) {
    const model = this.#models.getModel(request.provider, request.modelId);
    if (!model) {
      throw new HttpError(400, this.#options.describeUnknownModel(request.provider, request.modelId));
    }
    return model;
  }
}
