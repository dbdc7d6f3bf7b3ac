import { describe, expect, it } from "vitest";
import { fieldText, samplingFields, samplingSummary, withField } from "./sampling-form.ts";

describe("the sampling form", () => {
  it("shows temperature and max tokens for every model, the other parameters where the API takes them", () => {
    expect(samplingFields("mirror").map((field) => field.key)).toEqual(["temperature", "maxTokens"]);
    expect(samplingFields("openai-completions").map((field) => field.key)).toContain("top_k");
    expect(samplingFields("openai-responses").map((field) => field.key)).toEqual([
      "temperature",
      "maxTokens",
      "top_p",
    ]);
  });

  it("sets, clears and refuses fields, naming the problem", () => {
    const set = withField({}, "temperature", "0.4");
    expect(set).toEqual({ sampling: { temperature: 0.4 } });
    expect(withField({ temperature: 0.4 }, "temperature", " ")).toEqual({ sampling: {} });
    expect(withField({}, "temperature", "3")).toEqual({ problem: "Temperature must be between 0 and 2." });
    expect(withField({}, "maxTokens", "1.5")).toEqual({ problem: "Max tokens must be a whole number." });
    expect(withField({}, "maxTokens", "abc")).toEqual({ problem: "Max tokens must be a number." });
    expect(withField({}, "top_p", "0.9")).toEqual({ sampling: { params: { top_p: 0.9 } } });
    expect(withField({ params: { top_p: 0.9 } }, "top_p", "")).toEqual({ sampling: {} });
  });

  it("reads back what is set and summarises only what the model's API takes", () => {
    const sampling = { temperature: 0, maxTokens: 500, params: { top_k: 40 } };
    expect(fieldText(sampling, "temperature")).toBe("0");
    expect(fieldText(sampling, "top_p")).toBe("");
    expect(samplingSummary(sampling, "openai-completions")).toBe("T 0 · ≤500 tokens · top_k 40");
    expect(samplingSummary(sampling, "mirror")).toBe("T 0 · ≤500 tokens");
    expect(samplingSummary({}, "mirror")).toBe("default");
  });
});
