import {
  maxTokensProblem,
  samplingParamsFor,
  samplingValueProblem,
  SAMPLING_PARAMS,
  temperatureProblem,
  type SamplingParamName,
} from "../../shared/sampling-params.ts";
import type { Sampling } from "../../shared/sampling.ts";

/** One field of the sampling form: its name, label, and what bounds it. */
export interface SamplingField {
  key: "temperature" | "maxTokens" | SamplingParamName;
  label: string;
  step: number;
  min: number;
  max: number;
  description: string;
}

const TEMPERATURE: SamplingField = {
  key: "temperature",
  label: "Temperature",
  step: 0.1,
  min: 0,
  max: 2,
  description: "Higher is more varied, 0 the most likely tokens.",
};
const MAX_TOKENS: SamplingField = {
  key: "maxTokens",
  label: "Max tokens",
  step: 1,
  min: 1,
  max: 10_000_000,
  description: "The most output tokens the reply may have.",
};

/** How the form names and explains each parameter beyond temperature and max tokens. */
const PARAM_TEXT: Record<SamplingParamName, { label: string; description: string }> = {
  top_p: {
    label: "Top p",
    description: "Sample only from the smallest set of tokens whose probabilities add up to this.",
  },
  top_k: {
    label: "Top k",
    description: "Sample only from this many most likely tokens (local servers: llama.cpp, vLLM).",
  },
  min_p: {
    label: "Min p",
    description: "Drop tokens less likely than this fraction of the most likely one (local servers).",
  },
  frequency_penalty: {
    label: "Frequency penalty",
    description: "Penalise tokens by how often they already appeared.",
  },
  presence_penalty: {
    label: "Presence penalty",
    description: "Penalise tokens that already appeared at all.",
  },
  repetition_penalty: {
    label: "Repetition penalty",
    description: "Penalise repeated tokens multiplicatively (local servers).",
  },
  seed: {
    label: "Seed",
    description: "Ask for reproducible sampling with this seed, where the server supports it.",
  },
};

/** The fields a model of this API takes: temperature and max tokens always, the others where its API applies them. */
export function samplingFields(api: string): SamplingField[] {
  return [
    TEMPERATURE,
    MAX_TOKENS,
    ...samplingParamsFor(api).map((name) => {
      const spec = SAMPLING_PARAMS[name];
      return {
        key: name,
        label: PARAM_TEXT[name].label,
        step: spec.integer ? 1 : 0.05,
        min: spec.min,
        max: spec.max,
        description: PARAM_TEXT[name].description,
      };
    }),
  ];
}

/** The text a field shows for a sampling: the value set, or empty for the provider's default. */
export function fieldText(sampling: Sampling, key: SamplingField["key"]): string {
  const value =
    key === "temperature"
      ? sampling.temperature
      : key === "maxTokens"
        ? sampling.maxTokens
        : sampling.params?.[key];
  return value === undefined ? "" : String(value);
}

/**
 * The sampling with one field changed to `text`: empty clears it (the provider's default), anything else
 * must be a number in the field's range, or the problem is returned and the sampling stays as it was.
 */
export function withField(
  sampling: Sampling,
  key: SamplingField["key"],
  text: string,
): { sampling: Sampling } | { problem: string } {
  const trimmed = text.trim();
  const value = trimmed === "" ? undefined : Number(trimmed);
  if (value !== undefined) {
    const problem =
      key === "temperature"
        ? temperatureProblem(value)
        : key === "maxTokens"
          ? maxTokensProblem(value)
          : samplingValueProblem(key, value);
    if (problem) return { problem };
  }
  if (key === "temperature" || key === "maxTokens") {
    const { [key]: _old, ...rest } = sampling;
    return { sampling: value === undefined ? rest : { ...rest, [key]: value } };
  }
  const { [key]: _old, ...params } = sampling.params ?? {};
  const next = value === undefined ? params : { ...params, [key]: value };
  const { params: _params, ...rest } = sampling;
  return { sampling: Object.keys(next).length > 0 ? { ...rest, params: next } : rest };
}

/** "default", or "T 0.2 · 500 tokens · top_p 0.9" for the parts a model of this API takes. */
export function samplingSummary(sampling: Sampling, api: string): string {
  const parts: string[] = [];
  if (sampling.temperature !== undefined) parts.push(`T ${sampling.temperature}`);
  if (sampling.maxTokens !== undefined) parts.push(`≤${sampling.maxTokens} tokens`);
  for (const name of samplingParamsFor(api)) {
    const value = sampling.params?.[name];
    if (value !== undefined) parts.push(`${name} ${value}`);
  }
  return parts.length > 0 ? parts.join(" · ") : "default";
}
