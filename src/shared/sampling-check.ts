import { isObject } from "./is-object.ts";
import {
  SAMPLING_PARAM_NAMES,
  SAMPLING_PARAMS,
  samplingValueProblem,
  type SamplingParamName,
} from "./sampling-params.ts";
import type { SamplingOptions } from "./sampling.ts";

// Apart from sampling.ts, which the page's first chunk carries: the proxy's check and the calls view's
// description load with the code that uses them.

/**
 * A request's `samplingParams` as the proxy accepts them: only the parameters above, each in its range.
 * Anything else is refused with the reason, never dropped quietly: a key pi-ai would merge into the body
 * could replace what the proxy chose.
 */
export function checkSamplingParams(
  raw: unknown,
): { params: Partial<Record<SamplingParamName, number>> } | { error: string } {
  if (!isObject(raw)) return { error: 'Field "options.samplingParams" must be an object.' };
  const params: Partial<Record<SamplingParamName, number>> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!Object.hasOwn(SAMPLING_PARAMS, key))
      return {
        error: `"options.samplingParams.${key}" is not a sampling parameter this proxy passes on (it takes ${SAMPLING_PARAM_NAMES.join(", ")}).`,
      };
    const name = key as SamplingParamName;
    const problem = samplingValueProblem(name, value);
    if (problem) return { error: `"options.samplingParams.${key}": ${problem}` };
    params[name] = value as number;
  }
  return { params };
}

/** "temperature 0.2 · max tokens 500 · top_p 0.9", or undefined when nothing is set. */
export function describeSampling(options: Record<string, unknown> | SamplingOptions): string | undefined {
  const parts: string[] = [];
  if (typeof options.temperature === "number") parts.push(`temperature ${options.temperature}`);
  if (typeof options.maxTokens === "number") parts.push(`max tokens ${options.maxTokens}`);
  const params = options.samplingParams;
  if (isObject(params))
    for (const [name, value] of Object.entries(params)) parts.push(`${name} ${String(value)}`);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}
