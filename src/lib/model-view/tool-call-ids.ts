import type { Api, AssistantMessage, Model } from "@earendil-works/pi-ai";
import { shortHash } from "@earendil-works/pi-ai/utils/hash";

/**
 * The tool-call id normalizers pi-ai's provider adapters pass to `transformMessages`. pi-ai keeps them
 * inside each adapter, so they are reproduced here, one per adapter, each named after its source in
 * `@earendil-works/pi-ai/dist/api/`. `provider-conformance.test.ts` proves every one against the request body the
 * real adapter builds. `transformMessages` calls a normalizer only for tool calls of an assistant reply that
 * came from another model (provider, API or model id differ), and rewrites the matching results with it.
 */
export type ToolCallIdNormalizer = (id: string, model: Model<Api>, source: AssistantMessage) => string;

const UNSAFE_ID_CHARACTERS = /[^a-zA-Z0-9_-]/g;
const SAFE_ID_LENGTH = 64;

/** anthropic-messages.js `normalizeToolCallId`: Anthropic accepts `^[a-zA-Z0-9_-]+$`, at most 64 characters. */
export function anthropicToolCallId(id: string): string {
  return id.replace(UNSAFE_ID_CHARACTERS, "_").slice(0, SAFE_ID_LENGTH);
}

/** bedrock-converse-stream.js `normalizeToolCallId`: the same rule as Anthropic's (Bedrock serves Claude). */
export function bedrockToolCallId(id: string): string {
  const sanitized = id.replace(UNSAFE_ID_CHARACTERS, "_");
  return sanitized.length > SAFE_ID_LENGTH ? sanitized.slice(0, SAFE_ID_LENGTH) : sanitized;
}

/**
 * google-shared.js `requiresToolCallId`: the models whose function calls and responses carry an id on the
 * wire (Gemini 3 and later, and Claude and gpt-oss served through Google). The others are matched by name.
 */
export function googleRequiresToolCallId(modelId: string): boolean {
  const geminiMajorVersion = /^gemini(?:-live)?-(\d+)/.exec(modelId.toLowerCase())?.[1];
  return (
    modelId.startsWith("claude-") ||
    modelId.startsWith("gpt-oss-") ||
    (geminiMajorVersion !== undefined && Number.parseInt(geminiMajorVersion, 10) >= 3)
  );
}

/** google-shared.js `convertMessages`' normalizer (google-generative-ai and google-vertex). */
export function googleToolCallId(id: string, model: Model<Api>): string {
  if (!googleRequiresToolCallId(model.id)) return id;
  return id.replace(UNSAFE_ID_CHARACTERS, "_").slice(0, SAFE_ID_LENGTH);
}

const COMPLETIONS_ID_LENGTH = 40;

/**
 * openai-completions.js `convertMessages`' normalizer. An OpenAI Responses id `{call_id}|{item_id}` (the item
 * id can be hundreds of characters of `+`, `/`, `=`) becomes `{call_id}_{item_id}` sanitized, or, past 40
 * characters, the call id cut short plus a hash of the whole id, so that calls sharing a call id stay
 * distinct. Other ids are kept, except that OpenAI's own endpoint gets them cut at 40 characters.
 */
export function openAICompletionsToolCallId(id: string, model: Model<Api>): string {
  const separatorIndex = id.indexOf("|");
  if (separatorIndex >= 0) {
    const callId = id.slice(0, separatorIndex).replace(UNSAFE_ID_CHARACTERS, "_");
    const itemId = id.slice(separatorIndex + 1).replace(UNSAFE_ID_CHARACTERS, "_");
    const combinedId = itemId.length > 0 ? `${callId}_${itemId}` : callId;
    if (combinedId.length <= COMPLETIONS_ID_LENGTH) return combinedId;
    const hash = shortHash(id).slice(0, 8);
    const prefix = callId.slice(0, Math.max(1, COMPLETIONS_ID_LENGTH - hash.length - 1));
    return `${prefix}_${hash}`;
  }
  if (model.provider === "openai")
    return id.length > COMPLETIONS_ID_LENGTH ? id.slice(0, COMPLETIONS_ID_LENGTH) : id;
  return id;
}

/** The providers whose `{call_id}|{item_id}` ids each Responses adapter replays as such. */
export const RESPONSES_TOOL_CALL_PROVIDERS = {
  /** openai-responses.js `OPENAI_TOOL_CALL_PROVIDERS` */
  "openai-responses": new Set(["openai", "openai-codex", "opencode"]),
  /** azure-openai-responses.js `AZURE_TOOL_CALL_PROVIDERS` */
  "azure-openai-responses": new Set(["openai", "openai-codex", "opencode", "azure"]),
  /** openai-codex-responses.js `CODEX_TOOL_CALL_PROVIDERS` */
  "openai-codex-responses": new Set(["openai", "openai-codex", "opencode"]),
} as const satisfies Record<string, ReadonlySet<string>>;

function responsesIdPart(part: string): string {
  const sanitized = part.replace(UNSAFE_ID_CHARACTERS, "_");
  const normalized = sanitized.length > SAFE_ID_LENGTH ? sanitized.slice(0, SAFE_ID_LENGTH) : sanitized;
  return normalized.replace(/_+$/, "");
}

function foreignResponsesItemId(itemId: string): string {
  const normalized = `fc_${shortHash(itemId)}`;
  return normalized.length > SAFE_ID_LENGTH ? normalized.slice(0, SAFE_ID_LENGTH) : normalized;
}

/**
 * openai-responses-shared.js `convertResponsesMessages`' normalizer, for a Responses adapter that replays
 * `{call_id}|{item_id}` ids from `allowedProviders`. An item id from another provider or API is replaced by
 * a hash (`fc_…`), since the Responses API only accepts item ids it issued; item ids must start with `fc_`.
 */
export function openAIResponsesToolCallIds(allowedProviders: ReadonlySet<string>): ToolCallIdNormalizer {
  return (id, model, source) => {
    if (!allowedProviders.has(model.provider) || !id.includes("|")) return responsesIdPart(id);
    const [callId = "", itemId = ""] = id.split("|");
    const isForeignToolCall = source.provider !== model.provider || source.api !== model.api;
    let normalizedItemId = isForeignToolCall ? foreignResponsesItemId(itemId) : responsesIdPart(itemId);
    if (!normalizedItemId.startsWith("fc_")) normalizedItemId = responsesIdPart(`fc_${normalizedItemId}`);
    return `${responsesIdPart(callId)}|${normalizedItemId}`;
  };
}

const MISTRAL_ID_LENGTH = 9;

function mistralCandidate(id: string, attempt: number): string {
  const normalized = id.replace(/[^a-zA-Z0-9]/g, "");
  if (attempt === 0 && normalized.length === MISTRAL_ID_LENGTH) return normalized;
  const seedBase = normalized || id;
  const seed = attempt === 0 ? seedBase : `${seedBase}:${attempt}`;
  return shortHash(seed)
    .replace(/[^a-zA-Z0-9]/g, "")
    .slice(0, MISTRAL_ID_LENGTH);
}

/**
 * mistral-conversations.js `createMistralToolCallIdNormalizer`: Mistral wants ids of exactly 9 letters and
 * digits. An id that already is one stays; others become a hash, and two ids that would collide get
 * different ones. The normalizer remembers what it handed out, so make one per request, as the adapter does.
 */
export function createMistralToolCallIds(): (id: string) => string {
  const idOf = new Map<string, string>();
  const ownerOf = new Map<string, string>();
  return (id) => {
    const existing = idOf.get(id);
    if (existing) return existing;
    for (let attempt = 0; ; attempt++) {
      const candidate = mistralCandidate(id, attempt);
      const owner = ownerOf.get(candidate);
      if (!owner || owner === id) {
        idOf.set(id, candidate);
        ownerOf.set(candidate, id);
        return candidate;
      }
    }
  };
}
