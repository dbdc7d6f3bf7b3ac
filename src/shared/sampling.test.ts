import { describe, expect, it } from "vitest";
import { samplingOptions, samplingParamsFor } from "./sampling-params.ts";
import { storedSampling } from "./sampling.ts";
import { checkSamplingParams, describeSampling } from "./sampling-check.ts";

describe("sampling", () => {
  it("offers the parameters beyond temperature and max tokens only to the APIs that apply them", () => {
    expect(samplingParamsFor("openai-completions")).toContain("top_k");
    expect(samplingParamsFor("openai-responses")).toEqual(["top_p"]);
    expect(samplingParamsFor("anthropic-messages")).toEqual([]);
    expect(samplingParamsFor("mirror")).toEqual([]);
  });

  it("builds stream options for the chosen model's API, leaving out what it does not take", () => {
    const sampling = { temperature: 0.3, maxTokens: 200, params: { top_p: 0.9, top_k: 40 } };
    expect(samplingOptions(sampling, "openai-completions")).toEqual({
      temperature: 0.3,
      maxTokens: 200,
      samplingParams: { top_p: 0.9, top_k: 40 },
    });
    expect(samplingOptions(sampling, "openai-responses")).toEqual({
      temperature: 0.3,
      maxTokens: 200,
      samplingParams: { top_p: 0.9 },
    });
    expect(samplingOptions(sampling, "anthropic-messages")).toEqual({ temperature: 0.3, maxTokens: 200 });
    expect(samplingOptions({}, "openai-completions")).toEqual({});
  });

  it("accepts only known parameters in range, naming the one refused", () => {
    expect(checkSamplingParams({ top_p: 0.5, seed: 7 })).toEqual({ params: { top_p: 0.5, seed: 7 } });
    expect(checkSamplingParams({ model: "gpt-expensive" })).toEqual({
      error: expect.stringContaining('"options.samplingParams.model" is not a sampling parameter'),
    });
    expect(checkSamplingParams({ messages: [] })).toMatchObject({
      error: expect.stringContaining("messages"),
    });
    expect(checkSamplingParams({ top_p: 3 })).toEqual({
      error: '"options.samplingParams.top_p": top_p must be between 0 and 1.',
    });
    expect(checkSamplingParams({ top_k: 2.5 })).toMatchObject({
      error: expect.stringContaining("whole number"),
    });
    expect(checkSamplingParams({ seed: "1" })).toMatchObject({ error: expect.stringContaining("a number") });
    expect(checkSamplingParams([1])).toMatchObject({ error: expect.stringContaining("must be an object") });
    expect(checkSamplingParams(JSON.parse('{"__proto__": {"x": 1}}'))).toMatchObject({
      error: expect.stringContaining("__proto__"),
    });
  });

  it("reads stored sampling for its shape, and sends only what is in range", () => {
    const stored = storedSampling({
      temperature: 9,
      maxTokens: 100,
      params: { top_p: 0.5, top_k: -1, bogus: 1, seed: "x" },
      extra: true,
    });
    expect(stored).toEqual({ temperature: 9, maxTokens: 100, params: { top_p: 0.5, top_k: -1, bogus: 1 } });
    expect(samplingOptions(stored, "openai-completions")).toEqual({
      maxTokens: 100,
      samplingParams: { top_p: 0.5 },
    });
    expect(storedSampling("junk")).toEqual({});
    expect(samplingOptions(storedSampling({ maxTokens: 1.5, temperature: 0 }), "mirror")).toEqual({
      temperature: 0,
    });
  });

  it("describes what a request carried", () => {
    expect(describeSampling({ temperature: 0, maxTokens: 5, samplingParams: { top_p: 0.9 } })).toBe(
      "temperature 0 · max tokens 5 · top_p 0.9",
    );
    expect(describeSampling({ reasoning: "low" })).toBeUndefined();
  });
});
