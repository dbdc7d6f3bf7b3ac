import { describe, expect, it } from "vitest";
import { captureJson } from "../shared/payloads/captured-json.ts";
import { payloadReplacer } from "./payload-redaction.ts";
import { createRedactor } from "./redact.ts";

describe("payloadReplacer", () => {
  const replacer = payloadReplacer(createRedactor({ OPENAI_API_KEY: "sk-live-abcdef123456" }));
  const keep = (value: unknown) => {
    const kept = captureJson(value, 10_000, replacer);
    if (kept.kept !== "all") throw new Error(`not kept: ${JSON.stringify(kept)}`);
    return JSON.parse(kept.json) as unknown;
  };

  it("scrubs key values, credential fields and URL credentials, and leaves valid JSON", () => {
    const payload = {
      model: "gpt",
      api_key: "anything-at-all",
      headers: {
        Authorization: "Bearer xyz-not-in-env",
        "x-api-key": "k",
        "X-Goog-Api-Key": "g",
        Accept: "json",
      },
      messages: [
        {
          role: "user",
          content: 'the key is sk-live-abcdef123456, "quoted" at https://u:p4ss@host.example/v1',
        },
      ],
    };
    expect(keep(payload)).toEqual({
      model: "gpt",
      api_key: "[redacted]",
      headers: {
        Authorization: "[redacted]",
        "x-api-key": "[redacted]",
        "X-Goog-Api-Key": "[redacted]",
        Accept: "json",
      },
      messages: [
        { role: "user", content: 'the key is [redacted], "quoted" at https://[redacted]@host.example/v1' },
      ],
    });
  });

  it("keeps JSON valid where a text-level scrub would cut across strings", () => {
    // Scrubbing the serialized text would take `a","b@` for URL credentials and break the JSON.
    expect(keep(["http://a", "b@c"])).toEqual(["http://a", "b@c"]);
  });
});

describe("payload scrubbing misses object keys", () => {
  const replacer = payloadReplacer(createRedactor({ OPENAI_API_KEY: "sk-live-abcdef123456" }));
  const kept = (value: unknown) => {
    const stored = captureJson(value, 10_000, replacer);
    if (stored.kept !== "all") throw new Error(`not kept: ${JSON.stringify(stored)}`);
    return stored.json;
  };

  it("scrubs a secret that is an object's key, at any depth, keeping the other keys, their order and values", () => {
    const payload = {
      messages: [
        {
          role: "assistant",
          content: [{ type: "tool_use", input: { "sk-live-abcdef123456": "v", after: 1 } }],
        },
      ],
      tools: [
        { input_schema: { properties: { first: {}, "use sk-live-abcdef123456 here": { type: "string" } } } },
      ],
    };
    const json = kept(payload);
    expect(json).not.toContain("sk-live-abcdef123456");
    expect(JSON.parse(json)).toEqual({
      messages: [
        { role: "assistant", content: [{ type: "tool_use", input: { "[redacted]": "v", after: 1 } }] },
      ],
      tools: [{ input_schema: { properties: { first: {}, "use [redacted] here": { type: "string" } } } }],
    });
    expect(Object.keys(JSON.parse(json).tools[0].input_schema.properties)).toEqual([
      "first",
      "use [redacted] here",
    ]);
  });

  it("keeps two keys that scrub alike apart, and a key named __proto__ as a key", () => {
    const json = kept({ "sk-live-abcdef123456": 1, "[redacted]": 2, ["__proto__"]: 3, ok: 4 });
    expect(json).toBe('{"[redacted]":1,"[redacted] (2)":2,"__proto__":3,"ok":4}');
  });

  it("copies nothing when no key holds a secret", () => {
    const plain = { a: { b: 1 } };
    expect(replacer("", plain)).toBe(plain);
  });
});
