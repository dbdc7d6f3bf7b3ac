/**
 * JSON shapes exchanged between the page and the local proxy. Kept free of runtime code so that
 * both sides can import it without the browser pulling in server modules or the reverse.
 */

/** One model the proxy can serve, as listed by `GET /api/models`. Never carries credentials. */
export interface ModelInfo {
  provider: string;
  /** Display name of the provider, used to group the picker. */
  providerName: string;
  id: string;
  name: string;
  api: string;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  /** Thinking levels the model accepts, "off" included; only meaningful when `reasoning` is true. */
  thinkingLevels: string[];
  input: string[];
  /** USD per million tokens, when the catalog knows it. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** True for the deterministic offline models served by this process. */
  offline: boolean;
}

export interface ModelsResponse {
  models: ModelInfo[];
  /** Problems a person should know about, e.g. an unreachable local OpenAI-compatible server. */
  warnings: string[];
}

/** `GET /api/session`: what the page needs to talk to the proxy. */
export interface SessionResponse {
  /**
   * Per-start random token required as the Bearer token of `/api/stream`: handed to the pages of the server
   * that serves them, never by the standalone proxy (which serves no page, and answers only with the token).
   */
  token?: string;
  /** Largest request body `/api/stream` accepts, in bytes. */
  maxBodyBytes: number;
}

export interface ApiErrorBody {
  error: string;
}

/** A part of a call kept as it was, or cut at a size limit (the first bytes of its JSON are kept as text). */
export type Captured<T> =
  | { kept: "all"; value: T; bytes: number }
  | { kept: "truncated"; text: string; bytes: number }
  | { kept: "none"; bytes: number; reason: string };

/** Where a provider takes requests, as the proxy reports it: credentials are never part of it. */
export interface ProviderEndpoint {
  url: string;
  /** Header name → value, secrets as `$ENV_VAR` placeholders. */
  headers: Record<string, string>;
}

/**
 * `GET /api/calls/:callId/payload` and `POST /api/preview`: the request body the provider adapter built
 * (secrets scrubbed), and where that provider takes it, when it is a network service with a known address.
 */
export interface PayloadResponse {
  payload: Captured<unknown>;
  endpoint?: ProviderEndpoint;
}
