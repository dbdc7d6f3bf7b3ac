import { isObject } from "./is-object.ts";

/**
 * Sampling as a session keeps it. This module is all the page's first chunk carries of sampling: what the
 * parameters are, what their ranges are and which APIs take them is in sampling-params.ts, loaded with the
 * code that sends a request or shows the form.
 */

/** The parameters beyond temperature and max tokens (sampling-params.ts says which APIs take each). */
export type SamplingParamName =
  "top_p" | "top_k" | "min_p" | "frequency_penalty" | "presence_penalty" | "repetition_penalty" | "seed";

/** A session's (or a variant's) sampling: unset fields leave the provider's defaults. */
export interface Sampling {
  temperature?: number;
  maxTokens?: number;
  params?: Partial<Record<SamplingParamName, number>>;
}

/** What a sampling adds to the stream options of a request to a model of this API. */
export interface SamplingOptions {
  temperature?: number;
  maxTokens?: number;
  samplingParams?: Partial<Record<SamplingParamName, number>>;
}

/**
 * Stored sampling, read for its shape: numbers where numbers go, anything else dropped. Ranges and names are
 * checked where a request is built (`samplingOptions` leaves out what is out of range or unknown).
 */
export function storedSampling(raw: unknown): Sampling {
  if (!isObject(raw)) return {};
  const sampling: Sampling = {};
  if (isNumber(raw.temperature)) sampling.temperature = raw.temperature;
  if (isNumber(raw.maxTokens)) sampling.maxTokens = raw.maxTokens;
  if (isObject(raw.params)) {
    const params = Object.fromEntries(Object.entries(raw.params).filter(([, value]) => isNumber(value)));
    if (Object.keys(params).length > 0) sampling.params = params as Sampling["params"];
  }
  return sampling;
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
