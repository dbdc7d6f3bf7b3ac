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
