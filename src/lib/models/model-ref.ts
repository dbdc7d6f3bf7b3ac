import type { ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { Api, Model } from "@earendil-works/pi-ai";
import type { ModelInfo } from "../../shared/api-types.ts";

export interface ModelRef {
  provider: string;
  id: string;
}

/**
 * The model object the Agent carries. The proxy only reads `provider` and `id` from it and uses its own
 * record for everything else, so the page never needs (or has) a base URL or credentials.
 */
export function modelFromInfo(info: ModelInfo): Model<Api> {
  return {
    id: info.id,
    name: info.name,
    api: info.api,
    provider: info.provider,
    baseUrl: "",
    reasoning: info.reasoning,
    input: info.input.filter((kind): kind is "text" | "image" => kind === "text" || kind === "image"),
    cost: { ...info.cost },
    contextWindow: info.contextWindow,
    maxTokens: info.maxTokens,
  };
}

/** A stand-in until the catalog has loaded (or when a session names a model the server no longer has). */
export function modelFromRef(ref: ModelRef): Model<Api> {
  return {
    id: ref.id,
    name: ref.id,
    api: ref.provider === "mirror" ? "mirror" : "unknown",
    provider: ref.provider,
    baseUrl: "",
    reasoning: ref.id === "mirror-thinking",
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 0,
    maxTokens: 0,
  };
}

export function sameModel(a: ModelRef, b: ModelRef): boolean {
  return a.provider === b.provider && a.id === b.id;
}

/** The thinking level a session keeps when switching to `info`: unchanged if supported, else the nearest sensible one. */
export function thinkingLevelFor(info: ModelInfo | undefined, current: ThinkingLevel): ThinkingLevel {
  if (!info?.reasoning) return "off";
  if (info.thinkingLevels.includes(current) && current !== "off") return current;
  return info.thinkingLevels.includes("medium")
    ? "medium"
    : ((info.thinkingLevels.at(-1) as ThinkingLevel | undefined) ?? "off");
}
