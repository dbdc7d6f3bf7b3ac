import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { createModels, type MutableModels } from "@earendil-works/pi-ai";
import type { ModelsResponse } from "../api-types.ts";
import { HttpError } from "../http-error.ts";
import { availableModelInfos } from "../model-info.ts";
import { proxyEventStream } from "../proxy-events.ts";
import { parseStreamRequest } from "../stream-request.ts";
import { createMirrorProvider } from "./mirror-provider.ts";
import { mirrorSpeedOptions } from "./mirror-speed.ts";

export interface MirrorApiOptions {
  /** The sentence a request for any other model gets: why only the offline models answer here. */
  describeUnknownModel: (provider: string, id: string) => string;
}

/**
 * The proxy's API for the offline models alone, without HTTP: what answers `GET /api/models` and
 * `POST /api/stream` when no proxy is reachable. It resolves, streams and maps events with the same code
 * as the proxy (the mirror provider, `parseStreamRequest`, `proxyEventStream`), so a reply is the same
 * event for event whichever side produced it.
 */
export class MirrorApi {
  readonly #models: MutableModels;
  readonly #options: MirrorApiOptions;

  constructor(options: MirrorApiOptions) {
    this.#options = options;
    // No environment and no files: the mirror needs no credentials, and there is nothing else to find.
    this.#models = createModels({
      authContext: { env: async () => undefined, fileExists: async () => false },
    });
    this.#models.setProvider(createMirrorProvider());
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
    const model = this.#models.getModel(request.provider, request.modelId);
    if (!model) {
      throw new HttpError(400, this.#options.describeUnknownModel(request.provider, request.modelId));
    }
    return proxyEventStream(
      this.#models.streamSimple(
        model,
        { messages: request.messages },
        { ...request.options, ...mirrorSpeedOptions(request.mirrorSpeed), signal },
      ),
    );
  }
}
