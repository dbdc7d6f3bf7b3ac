import type { Parameters } from "fast-check";

/**
 * How large and which seed a property-based conformance test runs with. `npm test` runs each at its
 * modest default size with a fixed seed, so a run is the same on every machine; `npm run fuzz` sets
 * `FUZZ_RUNS` (hundreds) and a fresh `FUZZ_SEED`, which it prints. A failure names its seed and the
 * counterexample's path: `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run <file>` replays it alone.
 */
export function fuzzParameters<T>(defaultRuns: number): Parameters<T> {
  const env = process.env;
  const runs = Number(env.FUZZ_RUNS);
  const seed = Number(env.FUZZ_SEED);
  return {
    numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns,
    seed: Number.isInteger(seed) ? seed : 20_260_128,
    ...(env.FUZZ_PATH ? { path: env.FUZZ_PATH } : {}),
    // A counterexample is shrunk to the smallest session that still differs, and printed in full.
    verbose: 1,
  };
}
