import { describe, expect, it } from "vitest";
import { HttpError } from "./http-error.ts";
import { parseStreamRequest } from "./stream-request.ts";

const valid = {
  model: { provider: "mirror", id: "mirror", baseUrl: "http://evil.example", headers: { "x-evil": "1" } },
  context: { messages: [{ role: "user", content: "hi", timestamp: 1 }] },
  options: {
    temperature: 0.2,
    maxTokens: 100,
    reasoning: "high",
    headers: { Authorization: "steal" },
    apiKey: "nope",
  },
};

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof HttpError ? error.status : -1;
  }
  return undefined;
}

describe("parseStreamRequest", () => {
  it("keeps only the model reference and the allowed options", () => {
    const request = parseStreamRequest(JSON.stringify(valid));
    expect(request.provider).toBe("mirror");
    expect(request.modelId).toBe("mirror");
    expect(request.options).toEqual({ temperature: 0.2, maxTokens: 100, reasoning: "high" });
    expect(JSON.stringify(request)).not.toContain("evil");
    expect(JSON.stringify(request)).not.toContain("steal");
  });

  it("passes sampling parameters on only when each is one the proxy knows, in range", () => {
    const withParams = (samplingParams: unknown) =>
      JSON.stringify({ ...valid, options: { ...valid.options, samplingParams } });
    expect(parseStreamRequest(withParams({ top_p: 0.8, seed: 3 })).options.samplingParams).toEqual({
      top_p: 0.8,
      seed: 3,
    });
    // pi-ai merges samplingParams over the body's own fields: a model or messages key would replace them.
    for (const hostile of [{ model: "other" }, { messages: [] }, { stream: false }, { top_p: 5 }, "x"]) {
      let thrown: unknown;
      try {
        parseStreamRequest(withParams(hostile));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HttpError);
      expect((thrown as HttpError).status).toBe(400);
      expect((thrown as HttpError).message).toContain("samplingParams");
    }
  });

  it.each([
    ["malformed JSON", "{bad"],
    ["a non-object body", "[]"],
    ["a missing model", JSON.stringify({ context: { messages: [] } })],
    ["a model without id", JSON.stringify({ model: { provider: "mirror" }, context: { messages: [] } })],
    ["missing messages", JSON.stringify({ model: { provider: "mirror", id: "mirror" }, context: {} })],
    [
      "an unknown role",
      JSON.stringify({
        model: { provider: "mirror", id: "mirror" },
        context: { messages: [{ role: "notification", text: "x" }] },
      }),
    ],
    [
      "a tool result without ids",
      JSON.stringify({
        model: { provider: "m", id: "m" },
        context: { messages: [{ role: "toolResult", content: [] }] },
      }),
    ],
  ])("refuses %s with 400", (_name, body) => {
    expect(statusOf(() => parseStreamRequest(body))).toBe(400);
  });

  it("names the offending message", () => {
    const body = JSON.stringify({
      model: { provider: "m", id: "m" },
      context: { messages: [{ role: "user", content: "ok" }, { role: "bash" }] },
    });
    expect(() => parseStreamRequest(body)).toThrow(/context\.messages\[1\]/);
  });

  it("reads the call id from the metadata and keeps the metadata out of the options", () => {
    const request = parseStreamRequest(
      JSON.stringify({
        ...valid,
        options: { temperature: 0.2, metadata: { callId: "0b6f2c1e-5d4a-4f43", user_id: "someone" } },
      }),
    );
    expect(request.callId).toBe("0b6f2c1e-5d4a-4f43");
    expect(request.options).toEqual({ temperature: 0.2 });
    expect(parseStreamRequest(JSON.stringify(valid)).callId).toBeUndefined();
  });

  it.each([
    ["a number", 42, /must be a string/],
    ["a path", "../../etc/passwd", /must be 8 to 128 letters, digits/],
    ["too short", "abc", /must be 8 to 128/],
  ])("refuses a call id that is %s with 400", (_name, callId, message) => {
    const body = JSON.stringify({ ...valid, options: { metadata: { callId } } });
    expect(statusOf(() => parseStreamRequest(body))).toBe(400);
    expect(() => parseStreamRequest(body)).toThrow(message);
  });

  it("reads the offline models' speed from the options' metadata, strictly, and keeps it out of the options", () => {
    const withSpeed = (metadata: unknown) =>
      JSON.stringify({ ...valid, options: { ...valid.options, metadata } });
    const request = parseStreamRequest(
      withSpeed({ mirrorTokensPerSecond: 15, callId: "call-0001-abc", user_id: "u" }),
    );
    expect(request.mirrorSpeed).toBe(15);
    // No provider is ever handed the page's metadata through the options.
    expect(request.options).not.toHaveProperty("metadata");
    expect(JSON.stringify(request.options)).not.toContain("15");
    expect(parseStreamRequest(withSpeed({ callId: "call-0001-abc" })).mirrorSpeed).toBeUndefined();
    expect(parseStreamRequest(JSON.stringify(valid))).not.toHaveProperty("mirrorSpeed");
    for (const speed of [1_000_000, 16, "15", 1.5]) {
      expect(statusOf(() => parseStreamRequest(withSpeed({ mirrorTokensPerSecond: speed })))).toBe(400);
    }
    expect(() => parseStreamRequest(withSpeed({ mirrorTokensPerSecond: 16 }))).toThrow(
      "options.metadata.mirrorTokensPerSecond must be one of 2, 5, 15, 75, 300 (tokens per second), not 16.",
    );
  });
});
