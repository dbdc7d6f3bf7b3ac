import { setMaxListeners } from "node:events";
import {
  createModels,
  createProvider,
  type Api,
  type Model,
  type MutableModels,
  type Provider,
} from "@earendil-works/pi-ai";
import { openAICompletionsApi } from "@earendil-works/pi-ai/api/openai-completions.lazy";
import type { ModelsResponse, ProviderEndpoint } from "../shared/api-types.ts";
import { MIRROR_PROVIDER_ID } from "../shared/mirror/mirror-id.ts";
import { createMirrorProvider } from "../shared/mirror/mirror-provider.ts";
import { availableModelInfos, LOCAL_PROVIDER_ID } from "../shared/model-info.ts";
import { LOCAL_KEY_VARIABLE, PROVIDER_KEYS } from "../shared/provider-keys.ts";
import { describeEndpoint } from "./provider-endpoint.ts";
import { displayUrl } from "../shared/url-secrets.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import type { ServerEnv } from "./server-env.ts";

export interface RegistryOptions {
  /** Where credentials and settings are read from; `process.env` in production, a plain object in tests. */
  env: ServerEnv;
  /** Register pi-ai's built-in providers (their keys come from `env`). */
  builtins: boolean;
  /** Used to reach a local OpenAI-compatible server's `/models`. */
  fetch?: typeof fetch;
}

/**
 * The models this server can serve and the one place a request's model is resolved. The client names a
 * model by provider and id only; its own model object (baseUrl, headers) is never trusted.
 */
export interface ModelRegistry {
  readonly models: MutableModels;
  /** The server's own record of a model, or undefined when no registered provider has it. */
  resolve(provider: string, id: string): Model<Api> | undefined;
  /** Models whose providers are configured, plus warnings about those that could not be listed. */
  list(): Promise<ModelsResponse>;
  /** A sentence naming what is missing when `provider` has no credentials, or undefined when it has. */
  missingCredentials(provider: string): Promise<string | undefined>;
  /** Scrubs secrets from anything about to leave the server. */
  readonly redactor: Redactor;
  /** Where a model's provider takes requests, its key as `$VARIABLE`; undefined offline or when unknown. */
  endpoint(provider: string, id: string): Promise<ProviderEndpoint | undefined>;
}

/** An auth source that names an environment variable, as pi-ai reports keys read from the environment. */
const VARIABLE_NAME = /^[A-Z][A-Z0-9_]*$/;

const LOCAL_REFRESH_INTERVAL_MS = 15_000;

/** Variables named in error messages for the providers people use most; others get a generic sentence. */
const KEY_VARIABLES: Record<string, string> = Object.fromEntries(
  Object.entries(PROVIDER_KEYS).map(([provider, { variable }]) => [provider, variable]),
);

export async function createModelRegistry(options: RegistryOptions): Promise<ModelRegistry> {
  const models = createModels({
    authContext: {
      env: async (name) => options.env[name],
      fileExists: async () => false,
    },
  });
  models.setProvider(createMirrorProvider());
  if (options.builtins) {
    const { builtinProviders } = await import("@earendil-works/pi-ai/providers/all");
    for (const provider of builtinProviders()) models.setProvider(provider);
  }

  const local = localServerConfig(options.env);
  const redactor = createRedactor(options.env);
  let localWarning: string | undefined;
  let localRefreshedAt = 0;
  if (local) models.setProvider(createLocalProvider(local, options.fetch ?? fetch));

  async function refreshLocal(): Promise<void> {
    if (!local || Date.now() - localRefreshedAt < LOCAL_REFRESH_INTERVAL_MS) return;
    localRefreshedAt = Date.now();
    const signal = AbortSignal.timeout(5_000);
    // pi-ai adds one abort listener per registered provider; dozens are expected here.
    setMaxListeners(200, signal);
    const result = await models.refresh({ providers: [LOCAL_PROVIDER_ID], signal });
    const error = result.errors.get(LOCAL_PROVIDER_ID);
    const where = displayUrl(local.baseUrl);
    localWarning = error
      ? redactor.text(`The local OpenAI-compatible server at ${where} could not be listed: ${error.message}`)
      : result.aborted
        ? `The local OpenAI-compatible server at ${where} did not answer within 5 s.`
        : undefined;
  }

  const registry: ModelRegistry = {
    models,
    redactor,
    resolve(provider, id) {
      return models.getModel(provider, id);
    },
    async list() {
      await refreshLocal();
      const infos = await availableModelInfos(models, manyListeners());
      return { models: infos, warnings: localWarning ? [localWarning] : [] };
    },
    async missingCredentials(provider) {
      if ((await models.checkAuth(provider, { signal: manyListeners() })) !== undefined) return undefined;
      const variable = KEY_VARIABLES[provider];
      return variable
        ? `${variable} is not set on the server: start it with ${variable}=... to use ${provider} models.`
        : `The server has no credentials for provider "${provider}": set its API key in the server's environment.`;
    },
    async endpoint(provider, id) {
      const model = models.getModel(provider, id);
      if (!model || model.provider === MIRROR_PROVIDER_ID) return undefined;
      return describeEndpoint(model, await keyVariable(provider), (text) => redactor.text(text));
    },
  };

  /** The variable a provider's key comes from: the local server's own, or the one pi-ai read. */
  async function keyVariable(provider: string): Promise<string | undefined> {
    if (provider === LOCAL_PROVIDER_ID) return local?.apiKey ? LOCAL_KEY_VARIABLE : undefined;
    const source = (await models.checkAuth(provider, { signal: manyListeners() }))?.source;
    return source !== undefined && VARIABLE_NAME.test(source) ? source : KEY_VARIABLES[provider];
  }
  await refreshLocal();
  return registry;
}

/** pi-ai attaches one abort listener per registered provider; with the built-ins that is dozens, by design. */
function manyListeners(): AbortSignal {
  const signal = new AbortController().signal;
  setMaxListeners(200, signal);
  return signal;
}

interface LocalServerConfig {
  baseUrl: string;
  apiKey: string | undefined;
  name: string;
}

/**
 * A local OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp) is configured by
 * LOCAL_OPENAI_BASE_URL, e.g. http://127.0.0.1:11434/v1; its models come from its `/models`.
 */
function localServerConfig(env: ServerEnv): LocalServerConfig | undefined {
  const raw = env.LOCAL_OPENAI_BASE_URL?.trim();
  if (!raw) return undefined;
  return {
    baseUrl: raw.replace(/\/+$/, ""),
    apiKey: env.LOCAL_OPENAI_API_KEY?.trim() || undefined,
    name: env.LOCAL_OPENAI_NAME?.trim() || "Local OpenAI-compatible server",
  };
}

interface ListedModel {
  id?: unknown;
  context_length?: unknown;
  max_model_len?: unknown;
}

function createLocalProvider(config: LocalServerConfig, fetchImpl: typeof fetch): Provider {
  return createProvider({
    id: LOCAL_PROVIDER_ID,
    name: config.name,
    baseUrl: config.baseUrl,
    auth: {
      apiKey: {
        name: config.name,
        // The OpenAI client insists on a key; keyless local servers ignore this placeholder.
        resolve: async () => ({ auth: { apiKey: config.apiKey ?? "no-key-needed" } }),
      },
    },
    models: [],
    fetchModels: async ({ signal }) => {
      const response = await fetchImpl(`${config.baseUrl}/models`, {
        signal,
        headers: config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {},
      });
      if (!response.ok) throw new Error(`GET /models answered ${response.status} ${response.statusText}`);
      const body = (await response.json()) as { data?: ListedModel[] };
      const listed = Array.isArray(body.data) ? body.data : [];
      return listed
        .filter((entry): entry is ListedModel & { id: string } => typeof entry.id === "string")
        .map((entry) => localModel(config, entry));
    },
    api: openAICompletionsApi(),
  });
}

function localModel(
  config: LocalServerConfig,
  entry: ListedModel & { id: string },
): Model<"openai-completions"> {
  const contextWindow = positiveNumber(entry.context_length) ?? positiveNumber(entry.max_model_len) ?? 32_768;
  return {
    id: entry.id,
    name: entry.id,
    api: "openai-completions",
    provider: LOCAL_PROVIDER_ID,
    baseUrl: config.baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow,
    maxTokens: Math.min(8_192, contextWindow),
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false, supportsStore: false },
  };
}

function positiveNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
