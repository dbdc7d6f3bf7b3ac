import { describe, expect, it } from "vitest";
import { createRedactor, displayUrl } from "./redact.ts";

describe("createRedactor", () => {
  const redact = createRedactor({
    OPENAI_API_KEY: "sk-live-abcdef123456",
    HOME: "/root",
    SHORT_TOKEN: "abc",
  });

  it("removes the values of secret-looking variables wherever they appear", () => {
    expect(redact("Provider returned 401: Incorrect API key provided: sk-live-abcdef123456.")).toBe(
      "Provider returned 401: Incorrect API key provided: [redacted].",
    );
    expect(redact("path /root stays")).toBe("path /root stays");
  });

  it("removes credentials embedded in URLs", () => {
    expect(redact("could not reach http://user:pa55@127.0.0.1:11434/v1")).toBe(
      "could not reach http://[redacted]@127.0.0.1:11434/v1",
    );
  });
});

describe("displayUrl", () => {
  it("drops user name and password", () => {
    expect(displayUrl("http://user:key@localhost:11434/v1")).toBe("http://localhost:11434/v1");
    expect(displayUrl("http://localhost:11434/v1/")).toBe("http://localhost:11434/v1");
  });
});
