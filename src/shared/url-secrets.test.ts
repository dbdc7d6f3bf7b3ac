import { describe, expect, it } from "vitest";
import { displayUrl, looksLikeToken, urlSecrets } from "./url-secrets.ts";

describe("displayUrl", () => {
  it("drops user name and password", () => {
    expect(displayUrl("http://user:key@localhost:11434/v1")).toBe("http://localhost:11434/v1");
    expect(displayUrl("http://localhost:11434/v1/")).toBe("http://localhost:11434/v1");
  });

  it("hides token-like path segments and credential query values, keeping words and versions", () => {
    expect(displayUrl("http://127.0.0.1:1/v1/tok3nSecret/")).toBe("http://127.0.0.1:1/v1/[redacted]");
    expect(displayUrl("https://gw.example/openai/v1/chat-completions")).toBe(
      "https://gw.example/openai/v1/chat-completions",
    );
    expect(displayUrl("https://gw.example/v1?api-version=2024-02-01&key=abc")).toBe(
      "https://gw.example/v1?api-version=2024-02-01&key=[redacted]",
    );
  });

  it("lists the same parts as secrets", () => {
    expect(urlSecrets("http://u:p4ss@h/v1/tok3nSecret?token=t")).toEqual(
      expect.arrayContaining(["u", "p4ss", "tok3nSecret", "t"]),
    );
    expect(urlSecrets("http://h/v1/openai")).toEqual([]);
  });
});

describe("looksLikeToken", () => {
  it("takes mixed letters and digits from 8 characters, and anything from 24", () => {
    expect(looksLikeToken("tok3nSecret")).toBe(true);
    expect(looksLikeToken("abc123")).toBe(false);
    expect(looksLikeToken("chat-completions")).toBe(false);
    expect(looksLikeToken("a".repeat(24))).toBe(true);
  });
});
