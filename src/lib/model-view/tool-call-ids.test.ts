import type { Api, AssistantMessage, Model } from "@earendil-works/pi-ai";
import { requiresToolCallId } from "@earendil-works/pi-ai/api/google-shared";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import {
  anthropicToolCallId,
  bedrockToolCallId,
  createMistralToolCallIds,
  googleRequiresToolCallId,
  googleToolCallId,
  openAICompletionsToolCallId,
  openAIResponsesToolCallIds,
  RESPONSES_TOOL_CALL_PROVIDERS,
} from "./tool-call-ids.ts";

// The normalizers are proven against the request bodies of pi-ai's real adapters in provider-conformance.test.ts;
// these cases pin each branch down on its own, so a failure there can be read here.

const model = (provider: string, id = "m", api: Api = "openai-responses"): Model<Api> => ({
  id,
  name: id,
  api,
  provider,
  baseUrl: "http://127.0.0.1:9/",
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  reasoning: false,
  contextWindow: 1000,
  maxTokens: 100,
});

const source = (provider: string, api: Api = "openai-responses"): AssistantMessage => ({
  role: "assistant",
  content: [],
  api,
  provider,
  model: "other",
  usage: zeroUsage(),
  stopReason: "toolUse",
  timestamp: 0,
});

const responsesId = "call_abc|fc_very+long/id==";

describe("tool-call id normalizers", () => {
  it("Anthropic and Bedrock replace unsafe characters and cut at 64", () => {
    expect(anthropicToolCallId(responsesId)).toBe("call_abc_fc_very_long_id__");
    expect(anthropicToolCallId("a".repeat(70))).toBe("a".repeat(64));
    expect(bedrockToolCallId(responsesId)).toBe("call_abc_fc_very_long_id__");
    expect(bedrockToolCallId("é".repeat(70))).toBe("_".repeat(64));
  });

  it("Google rewrites ids only for the models that send them, by pi-ai's own list", () => {
    for (const id of [
      "gemini-2.5-flash",
      "gemini-3-flash-preview",
      "gemini-live-3",
      "claude-x",
      "gpt-oss-1",
      "x",
    ]) {
      expect(googleRequiresToolCallId(id), id).toBe(requiresToolCallId(id));
    }
    expect(googleToolCallId(responsesId, model("google", "gemini-2.5-flash"))).toBe(responsesId);
    expect(googleToolCallId(responsesId, model("google", "gemini-3-flash-preview"))).toBe(
      "call_abc_fc_very_long_id__",
    );
  });

  it("OpenAI Completions joins call and item ids, hashes past 40 characters, and cuts OpenAI's own at 40", () => {
    const other = model("groq", "llama", "openai-completions");
    expect(openAICompletionsToolCallId(responsesId, other)).toBe("call_abc_fc_very_long_id__");
    const long = openAICompletionsToolCallId(`call_xyz|fc_${"Ab+/".repeat(50)}`, other);
    expect(long).toMatch(/^call_xyz_[a-z0-9]{8}$/);
    expect(openAICompletionsToolCallId("x".repeat(50), other)).toBe("x".repeat(50));
    expect(openAICompletionsToolCallId("x".repeat(50), model("openai", "gpt", "openai-completions"))).toBe(
      "x".repeat(40),
    );
  });

  it("OpenAI Responses keeps pairs for its providers, hashing a foreign item id, and flattens the rest", () => {
    const normalize = openAIResponsesToolCallIds(RESPONSES_TOOL_CALL_PROVIDERS["openai-responses"]);
    const openai = model("openai");
    expect(normalize(responsesId, openai, source("openai"))).toBe("call_abc|fc_very_long_id");
    expect(normalize(responsesId, openai, source("github-copilot"))).toMatch(/^call_abc\|fc_[a-z0-9]+$/);
    expect(normalize("call_1|item", openai, source("openai"))).toBe("call_1|fc_item");
    expect(normalize("toolu_1", openai, source("anthropic"))).toBe("toolu_1");
    expect(normalize(responsesId, model("cloudflare-ai-gateway"), source("openai"))).toBe(
      "call_abc_fc_very_long_id",
    );
  });

  it("Mistral keeps nine-character ids, hashes others, and never hands out one id twice", () => {
    const normalize = createMistralToolCallIds();
    expect(normalize("abcdef123")).toBe("abcdef123");
    const clash = normalize("abc_def_123");
    expect(clash).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(clash).not.toBe("abcdef123");
    expect(normalize("abc_def_123")).toBe(clash);
    expect(normalize(responsesId)).toMatch(/^[a-zA-Z0-9]{9}$/);
  });
});
