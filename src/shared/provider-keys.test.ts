import { builtinProviders } from "@earendil-works/pi-ai/providers/all";
import { describe, expect, it } from "vitest";
import { keyBelongsTo, PROVIDER_KEYS } from "./provider-keys.ts";

describe("PROVIDER_KEYS", () => {
  it("names the host of each provider's built-in base URL in pi-ai", () => {
    const providers = new Map(builtinProviders().map((provider) => [provider.id, provider]));
    for (const [id, { host }] of Object.entries(PROVIDER_KEYS)) {
      const provider = providers.get(id);
      expect(provider, id).toBeDefined();
      expect(new URL(provider?.baseUrl ?? "").hostname, id).toBe(host);
    }
  });

  it("lets a key go only to its own provider's host, over https, and a local key only to this machine", () => {
    expect(keyBelongsTo("OPENAI_API_KEY", "https://api.openai.com/v1/chat/completions")).toBe(true);
    expect(keyBelongsTo("OPENAI_API_KEY", "https://api.openai.com.evil.example/v1")).toBe(false);
    expect(keyBelongsTo("OPENAI_API_KEY", "http://api.openai.com/v1")).toBe(false);
    expect(keyBelongsTo("OPENAI_API_KEY", "https://api.anthropic.com/v1/messages")).toBe(false);
    expect(keyBelongsTo("HOME", "https://api.openai.com/v1")).toBe(false);
    expect(keyBelongsTo("LOCAL_OPENAI_API_KEY", "http://127.0.0.1:11434/v1/chat/completions")).toBe(true);
    expect(keyBelongsTo("LOCAL_OPENAI_API_KEY", "http://192.0.2.7:11434/v1")).toBe(false);
    expect(keyBelongsTo("OPENAI_API_KEY", "not a url")).toBe(false);
  });
});
