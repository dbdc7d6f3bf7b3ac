import { describe, expect, it } from "vitest";
import type { ModelInfo } from "../../shared/api-types.ts";
import { filterModels, formatContextWindow, formatPrice, groupByProvider } from "./model-search.ts";

const model = (provider: string, id: string, name = id): ModelInfo => ({
  provider,
  providerName: provider.toUpperCase(),
  id,
  name,
  api: "x",
  contextWindow: 200_000,
  maxTokens: 8_000,
  reasoning: false,
  thinkingLevels: ["off"],
  input: ["text"],
  cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
  offline: false,
});

const models = [
  model("mirror", "mirror", "Mirror (offline)"),
  model("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5"),
  model("openai", "gpt-5"),
];

describe("model search", () => {
  it("matches every word in name, id or provider", () => {
    expect(filterModels(models, "claude sonnet").map((found) => found.id)).toEqual(["claude-sonnet-4-5"]);
    expect(filterModels(models, "OPENAI").map((found) => found.id)).toEqual(["gpt-5"]);
    expect(filterModels(models, "  ")).toHaveLength(3);
    expect(filterModels(models, "llama")).toEqual([]);
  });

  it("groups by provider in the server's order", () => {
    expect(groupByProvider(models).map((group) => group.provider)).toEqual(["mirror", "anthropic", "openai"]);
  });

  it("formats context windows and prices", () => {
    expect(formatContextWindow(1_000_000)).toBe("1M");
    expect(formatContextWindow(200_000)).toBe("200k");
    expect(formatPrice({ input: 3, output: 15, cacheRead: 0, cacheWrite: 0 }, false)).toBe(
      "$3 in / $15 out per M tokens",
    );
    expect(formatPrice({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, true)).toBe("free, offline");
  });
});
