import { describe, expect, it } from "vitest";
import { createRedactor } from "./redact.ts";

describe("createRedactor", () => {
  const redactor = createRedactor({
    OPENAI_API_KEY: "sk-live-abcdef123456",
    LOCAL_OPENAI_API_KEY: "k3y",
    LOCAL_OPENAI_BASE_URL: "http://127.0.0.1:1/v1/tok3nSecret/",
    HOME: "/root",
    KEYTIMEOUT: "1",
    SOME_TOKEN: 'quo"te\\d-secret',
  });

  it("removes the values of secret-looking variables wherever they appear", () => {
    expect(redactor.text("Provider returned 401: Incorrect API key provided: sk-live-abcdef123456.")).toBe(
      "Provider returned 401: Incorrect API key provided: [redacted].",
    );
    expect(redactor.text("path /root stays")).toBe("path /root stays");
  });

  it("scrubs a configured key however short it is, but not short values of other variables", () => {
    expect(redactor.serialized("Authorization: Bearer k3y")).toBe("Authorization: Bearer [redacted]");
    expect(redactor.serialized("KEYTIMEOUT is 1")).toBe("KEYTIMEOUT is 1");
  });

  it("scrubs a short key without touching the marker that replaced a longer one", () => {
    const tricky = createRedactor({ A_API_KEY: "dact", B_API_KEY: "longer-secret-value" });
    expect(tricky.serialized("longer-secret-value and dact")).toBe("[redacted] and [redacted]");
  });

  it("scrubs secrets as they appear inside JSON, escaped", () => {
    const json = JSON.stringify({ text: 'the key is quo"te\\d-secret' });
    expect(redactor.serialized(json)).toBe('{"text":"the key is [redacted]"}');
  });

  it("scrubs token-like parts of configured URLs from any text", () => {
    expect(redactor.serialized("request to http://127.0.0.1:1/v1/tok3nSecret/chat failed")).toBe(
      "request to http://127.0.0.1:1/v1/[redacted]/chat failed",
    );
  });

  it("removes credentials embedded in URLs", () => {
    expect(redactor.text("could not reach http://user:pa55@127.0.0.1:11434/v1")).toBe(
      "could not reach http://[redacted]@127.0.0.1:11434/v1",
    );
  });

  it("returns the very same string when nothing matches, and does nothing without secrets", () => {
    const text = "nothing to see";
    expect(redactor.serialized(text)).toBe(text);
    expect(createRedactor({ HOME: "/root" }).serialized("sk-live-abcdef123456")).toBe("sk-live-abcdef123456");
  });
});
