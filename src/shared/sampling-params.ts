import type { Sampling, SamplingOptions, SamplingParamName } from "./sampling.ts";

/**
 * Sampling parameters: what pi-ai's stream options carry besides the model and the thinking level.
 * `temperature` and `maxTokens` are pi-ai's own options, which every API adapter maps to its provider's
 * fields. The others travel in `samplingParams`, which pi-ai merges into the request body as they are,
 * and only for the OpenAI-compatible APIs; so each is offered only where the chosen model's API takes it.
 * Both sides read this module: the page to offer and send them, the proxy to accept only these keys
 * (pi-ai merges `samplingParams` over the body's own fields: an unchecked key could replace the model
 * or the messages the proxy chose).
 */

/** The APIs whose adapters apply `samplingParams` (pi-ai's openai-completions and responses adapters). */
const COMPLETIONS = ["openai-completions"] as const;
const OPENAI_COMPATIBLE = ["openai-completions", "openai-responses", "azure-openai-responses"] as const;

export interface SamplingParamSpec {
  min: number;
  max: number;
  integer: boolean;
  /** The APIs whose requests take it (their adapters merge `samplingParams` into the body). */
  apis: readonly string[];
}

export const SAMPLING_PARAMS = {
  top_p: {
    min: 0,
    max: 1,
    integer: false,
    apis: OPENAI_COMPATIBLE,
  },
  top_k: {
    min: 1,
    max: 1000,
    integer: true,
    apis: COMPLETIONS,
  },
  min_p: {
    min: 0,
    max: 1,
    integer: false,
    apis: COMPLETIONS,
  },
  frequency_penalty: {
    min: -2,
    max: 2,
    integer: false,
    apis: COMPLETIONS,
  },
  presence_penalty: {
    min: -2,
    max: 2,
    integer: false,
    apis: COMPLETIONS,
  },
  repetition_penalty: {
    min: 0,
    max: 10,
    integer: false,
    apis: COMPLETIONS,
  },
  seed: {
    min: 0,
    max: 2 ** 31 - 1,
    integer: true,
    apis: COMPLETIONS,
  },
} as const satisfies Record<SamplingParamName, SamplingParamSpec>;

export type { SamplingParamName } from "./sampling.ts";
export const SAMPLING_PARAM_NAMES = Object.keys(SAMPLING_PARAMS) as SamplingParamName[];

export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const;
/** The largest max-tokens a request may ask for: beyond every model's output window. */
export const MAX_TOKENS_LIMIT = 10_000_000;

/** The parameters a model of this API takes besides temperature and max tokens. */
export function samplingParamsFor(api: string): SamplingParamName[] {
  return SAMPLING_PARAM_NAMES.filter((name) =>
    (SAMPLING_PARAMS[name].apis as readonly string[]).includes(api),
  );
}

/**
 * The stream options for a request to a model of `api`: parameters its API does not take are left out, and
 * so is any value out of its range (a session's settings are read for their shape only).
 */
export function samplingOptions(sampling: Sampling | undefined, api: string): SamplingOptions {
  if (!sampling) return {};
  const options: SamplingOptions = {};
  if (sampling.temperature !== undefined && temperatureProblem(sampling.temperature) === undefined)
    options.temperature = sampling.temperature;
  if (sampling.maxTokens !== undefined && maxTokensProblem(sampling.maxTokens) === undefined)
    options.maxTokens = sampling.maxTokens;
  const params: Partial<Record<SamplingParamName, number>> = {};
  for (const name of samplingParamsFor(api)) {
    const value = sampling.params?.[name];
    if (value !== undefined && samplingValueProblem(name, value) === undefined) params[name] = value;
  }
  if (Object.keys(params).length > 0) options.samplingParams = params;
  return options;
}

/** Why a value is not acceptable for this parameter; undefined when it is. */
export function samplingValueProblem(name: SamplingParamName, value: unknown): string | undefined {
  const spec = SAMPLING_PARAMS[name];
  return rangeProblem(name, value, spec.min, spec.max, spec.integer);
}

export function temperatureProblem(value: unknown): string | undefined {
  return rangeProblem("Temperature", value, TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max, false);
}

export function maxTokensProblem(value: unknown): string | undefined {
  return rangeProblem("Max tokens", value, 1, MAX_TOKENS_LIMIT, true);
}

function rangeProblem(
  label: string,
  value: unknown,
  min: number,
  max: number,
  integer: boolean,
): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return `${label} must be a number.`;
  if (integer && !Number.isInteger(value)) return `${label} must be a whole number.`;
  if (value < min || value > max) return `${label} must be between ${min} and ${max}.`;
  return undefined;
}
