import {
  getSupportedThinkingLevels,
  type Api,
  type Model,
  type Models,
  type Provider,
} from "@earendil-works/pi-ai";
import type { ModelInfo } from "./api-types.ts";
import { MIRROR_PROVIDER_ID } from "./mirror/mirror-id.ts";

/** The provider id of the local OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp). */
export const LOCAL_PROVIDER_ID = "local";

/**
 * The models of `models` whose providers are configured, as `GET /api/models` lists them: the same list
 * whether the proxy runs on a server or, for the offline models alone, inside the page.
 */
export async function availableModelInfos(models: Models, signal?: AbortSignal): Promise<ModelInfo[]> {
  const available = await models.getAvailable(undefined, signal ? { signal } : undefined);
  const infos = available.map((model) => toModelInfo(model, models.getProvider(model.provider)));
  infos.sort(compareModels);
  return infos;
}

/** What the page may know of a model: never a base URL, headers or credentials. */
export function toModelInfo(model: Model<Api>, provider: Provider | undefined): ModelInfo {
  return {
    provider: model.provider,
    providerName: provider?.name ?? model.provider,
    id: model.id,
    name: model.name,
    api: model.api,
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
    reasoning: model.reasoning,
    thinkingLevels: getSupportedThinkingLevels(model),
    input: [...model.input],
    cost: {
      input: model.cost.input,
      output: model.cost.output,
      cacheRead: model.cost.cacheRead,
      cacheWrite: model.cost.cacheWrite,
    },
    offline: model.provider === MIRROR_PROVIDER_ID,
  };
}

/** Offline models first, then the local server, then providers alphabetically. */
export function compareModels(a: ModelInfo, b: ModelInfo): number {
  const rank = (info: ModelInfo) => (info.offline ? 0 : info.provider === LOCAL_PROVIDER_ID ? 1 : 2);
  return rank(a) - rank(b) || a.providerName.localeCompare(b.providerName) || a.name.localeCompare(b.name);
}
