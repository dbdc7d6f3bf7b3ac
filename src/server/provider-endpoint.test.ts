import type { Api, Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { createModelRegistry } from "./model-registry.ts";
import { describeEndpoint } from "./provider-endpoint.ts";
import { createRedactor } from "./redact.ts";

const redactor = createRedactor({ OPENAI_API_KEY: "sk-live-abcdef123456" });
const redact = (text: string): string => redactor.text(text);

function model(api: string, baseUrl: string, extra: Partial<Model<Api>> = {}): Model<Api> {
  return {
    id: "some-model",
    name: "Some model",
    api,
    provider: "p",
    baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
    ...extra,
  };
}

describe("describeEndpoint", () => {
  it("names each API's request URL and its key header, the key as a variable", () => {
    expect(
      describeEndpoint(model("openai-completions", "https://api.example/v1"), "OPENAI_API_KEY", redact),
    ).toEqual({
      url: "https://api.example/v1/chat/completions",
      headers: { Authorization: "Bearer $OPENAI_API_KEY" },
    });
    expect(
      describeEndpoint(model("openai-responses", "https://api.openai.com/v1"), "OPENAI_API_KEY", redact)?.url,
    ).toBe("https://api.openai.com/v1/responses");
    expect(
      describeEndpoint(model("anthropic-messages", "https://api.anthropic.com"), "ANTHROPIC_API_KEY", redact),
    ).toEqual({
      url: "https://api.anthropic.com/v1/messages",
      headers: { "x-api-key": "$ANTHROPIC_API_KEY", "anthropic-version": "2023-06-01" },
    });
    expect(
      describeEndpoint(
        model("anthropic-messages", "https://api.anthropic.com"),
        "ANTHROPIC_OAUTH_TOKEN",
        redact,
      )?.headers,
    ).toMatchObject({ Authorization: "Bearer $ANTHROPIC_OAUTH_TOKEN" });
    expect(
      describeEndpoint(
        model("google-generative-ai", "https://generativelanguage.googleapis.com/v1beta"),
        "GEMINI_API_KEY",
        redact,
      ),
    ).toEqual({
      url: "https://generativelanguage.googleapis.com/v1beta/models/some-model:streamGenerateContent?alt=sse",
      headers: { "x-goog-api-key": "$GEMINI_API_KEY" },
    });
  });

  it("has no auth header for a keyless server, and no endpoint for an API without a plain URL", () => {
    expect(
      describeEndpoint(model("openai-completions", "http://127.0.0.1:11434/v1"), undefined, redact),
    ).toEqual({
      url: "http://127.0.0.1:11434/v1/chat/completions",
      headers: {},
    });
    expect(
      describeEndpoint(model("bedrock-converse-stream", "https://bedrock.example"), "AWS_KEY", redact),
    ).toBeUndefined();
  });

  it("scrubs credentials from the URL and the model's headers", () => {
    const described = describeEndpoint(
      model("openai-completions", "http://me:pass-word@10.0.0.2:8000/v1", {
        headers: {
          "X-Team": "sk-live-abcdef123456",
          Authorization: "Bearer static",
          "NVCF-POLL-SECONDS": "3600",
        },
      }),
      undefined,
      redact,
    );
    expect(described).toEqual({
      url: "http://10.0.0.2:8000/v1/chat/completions",
      headers: { "X-Team": "[redacted]", "NVCF-POLL-SECONDS": "3600" },
    });
  });
});

describe("the registry's endpoints", () => {
  it("take the key variable pi-ai read, the local server's own, and none offline", async () => {
    const registry = await createModelRegistry({
      env: { OPENAI_API_KEY: "sk-test-key-000000", GEMINI_API_KEY: "gm-test-key-000000" },
      builtins: true,
    });
    const openai = registry.models.getModels("openai")[0];
    const google = registry.models.getModels("google")[0];
    expect(await registry.endpoint("openai", openai?.id ?? "")).toEqual({
      url: "https://api.openai.com/v1/responses",
      headers: { Authorization: "Bearer $OPENAI_API_KEY" },
    });
    expect((await registry.endpoint("google", google?.id ?? ""))?.headers).toEqual({
      "x-goog-api-key": "$GEMINI_API_KEY",
    });
    expect(await registry.endpoint("mirror", "mirror")).toBeUndefined();
    expect(await registry.endpoint("nowhere", "x")).toBeUndefined();
    expect(JSON.stringify(await registry.endpoint("openai", openai?.id ?? ""))).not.toContain("sk-test-key");
  });
});
