import type { Api, Model } from "@earendil-works/pi-ai";
import type { ProviderEndpoint } from "../shared/api-types.ts";
import { displayUrl } from "../shared/url-secrets.ts";

/** Where each API's adapter sends its request body, below the model's base URL. */
const REQUEST_PATHS: Partial<Record<string, (model: Model<Api>) => string>> = {
  "openai-completions": () => "/chat/completions",
  "openai-responses": () => "/responses",
  "anthropic-messages": () => "/v1/messages",
  "google-generative-ai": (model) => `/models/${encodeURIComponent(model.id)}:streamGenerateContent?alt=sse`,
  "mistral-conversations": () => "/v1/chat/completions",
};

/** Header names that carry credentials: never shown with a value, whatever set them. */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key)$/i;

/** The header that carries the key, as the API's client sends it, with the key as a `$VARIABLE`. */
function authHeader(api: string, variable: string): [string, string] {
  const placeholder = `$${variable}`;
  switch (api) {
    case "anthropic-messages":
      // Anthropic's OAuth and auth-token variables go as Bearer; an API key as x-api-key.
      return variable === "ANTHROPIC_API_KEY"
        ? ["x-api-key", placeholder]
        : ["Authorization", `Bearer ${placeholder}`];
    case "google-generative-ai":
      return ["x-goog-api-key", placeholder];
    default:
      return ["Authorization", `Bearer ${placeholder}`];
  }
}

/**
 * Where a model's provider takes requests, for a `curl` that repeats a captured payload: the URL without
 * credentials, the model's own static headers (scrubbed), and the key as the environment variable the
 * server reads it from. Undefined for APIs whose address is not a plain URL (Bedrock, Vertex, …).
 */
export function describeEndpoint(
  model: Model<Api>,
  keyVariable: string | undefined,
  redact: (text: string) => string,
): ProviderEndpoint | undefined {
  const path = REQUEST_PATHS[model.api];
  if (!path || !model.baseUrl) return undefined;
  const headers: Record<string, string> = {};
  if (keyVariable) {
    const [name, value] = authHeader(model.api, keyVariable);
    headers[name] = value;
  }
  if (model.api === "anthropic-messages") headers["anthropic-version"] = "2023-06-01";
  for (const [name, value] of Object.entries(model.headers ?? {})) {
    if (CREDENTIAL_HEADERS.test(name)) continue;
    headers[name] = redact(value);
  }
  return { url: redact(displayUrl(model.baseUrl) + path(model)), headers };
}
