import { describe, expect, it } from "vitest";
import { captureJson, payloadResponseJson, storedBytes, utf8Bytes } from "./captured-json.ts";

describe("captureJson", () => {
  it("keeps a payload whole, as its JSON, sized in UTF-8 bytes", () => {
    const payload = { model: "m", messages: [{ role: "user", content: "héllo 👋" }] };
    const kept = captureJson(payload, 1024);
    expect(kept).toEqual({
      kept: "all",
      json: JSON.stringify(payload),
      bytes: new TextEncoder().encode(JSON.stringify(payload)).length,
    });
  });

  it("keeps the first bytes of a larger payload as text, never splitting a character", () => {
    const payload = { text: "a" + "é".repeat(50) };
    const json = JSON.stringify(payload);
    const kept = captureJson(payload, 20);
    expect(kept.kept).toBe("truncated");
    if (kept.kept !== "truncated") return;
    expect(kept.bytes).toBe(new TextEncoder().encode(json).length);
    expect(json.startsWith(kept.text)).toBe(true);
    // '{"text":"a' is 10 bytes, then 2-byte characters: 5 of them fit in 20 bytes.
    expect(kept.text).toBe(`{"text":"a${"é".repeat(5)}`);
    expect(captureJson(payload, 21)).toMatchObject({ text: `{"text":"a${"é".repeat(5)}` });
  });

  it("scrubs through the replacer in the same pass", () => {
    const kept = captureJson({ key: "secret", other: "fine" }, 100, (key, value) =>
      key === "key" ? "[redacted]" : value,
    );
    expect(kept).toMatchObject({ kept: "all", json: '{"key":"[redacted]","other":"fine"}' });
  });

  it("says why when a payload cannot be written as JSON", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(captureJson(circular, 100)).toMatchObject({
      kept: "none",
      bytes: 0,
      reason: expect.stringMatching(/^it could not be written as JSON/),
    });
    expect(captureJson(undefined, 100)).toMatchObject({ kept: "none" });
  });
});

describe("utf8Bytes", () => {
  it("counts as TextEncoder does, surrogate pairs and lone surrogates included", () => {
    for (const text of ["", "ascii", "é", "€", "👋", "a\ud800b", "\udc00", "x👋y€é"]) {
      expect(utf8Bytes(text), text).toBe(new TextEncoder().encode(text).length);
    }
  });
});

describe("payloadResponseJson", () => {
  it("writes the PayloadResponse around the kept JSON, which parses back to the payload", () => {
    const payload = { model: "m", n: [1, 2] };
    const endpoint = {
      url: "https://x.example/v1/chat/completions",
      headers: { Authorization: "Bearer $KEY" },
    };
    const kept = captureJson(payload, 100);
    expect(JSON.parse(payloadResponseJson(kept, endpoint))).toEqual({
      payload: { kept: "all", bytes: kept.bytes, value: payload },
      endpoint,
    });
    const none = { kept: "none" as const, bytes: 0, reason: "why" };
    expect(JSON.parse(payloadResponseJson(none))).toEqual({ payload: none });
    expect(storedBytes(none)).toBe(3);
  });
});
