import type { Parameters } from "fast-check";

/**
 * How large and which seed a property-based conformance test runs with. `npm test` runs each at its
 * modest default size with a fixed seed, so a run is the same on every machine; `npm run fuzz` multiplies
 * every size (`FUZZ_SCALE`) and picks a fresh `FUZZ_SEED`, which it prints. A failure names its seed and
 * the counterexample's path: `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run <file> -t <test>` replays it
 * alone (a test whose seed is offset says so in its name).
 */
export function fuzzParameters<T>(defaultRuns: number, seedOffset = 0): Parameters<T> {
  const env = process.env;
  const scale = Number(env.FUZZ_SCALE);
  const seed = Number(env.FUZZ_SEED);
  return {
    numRuns: Math.max(1, Math.round(defaultRuns * (Number.isFinite(scale) && scale > 0 ? scale : 1))),
    seed: (Number.isInteger(seed) ? seed : 20_260_128) + seedOffset,
    ...(env.FUZZ_PATH ? { path: env.FUZZ_PATH } : {}),
    // A counterexample is shrunk to the smallest input that still differs, and printed in full.
    verbose: 1,
  };
}

/** A test's time limit for a run of this size: generous per run (a shared machine), still finite. */
export function fuzzTimeout(parameters: { numRuns?: number }): number {
  return 30_000 + (parameters.numRuns ?? 100) * 500;
}
