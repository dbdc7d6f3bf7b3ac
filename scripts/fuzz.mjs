#!/usr/bin/env node
// The conformance fuzz at full size: every property test against pi's own code (*.fuzz.test.ts) with its
// sizes multiplied by FUZZ_SCALE (default 6: about a thousand pi sessions and three thousand message
// lists) and a fresh seed, printed first so that a failure can be replayed with the same FUZZ_SEED.
import { spawnSync } from "node:child_process";

const scale = process.env.FUZZ_SCALE ?? "6";
const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`Conformance fuzz: FUZZ_SCALE=${scale} FUZZ_SEED=${seed} (set both to replay this run)`);
const started = Date.now();
const run = spawnSync("npx", ["vitest", "run", "fuzz.test", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_SCALE: scale, FUZZ_SEED: seed },
});
console.log(
  `Conformance fuzz ${run.status === 0 ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s (FUZZ_SCALE=${scale} FUZZ_SEED=${seed})`,
);
process.exit(run.status ?? 1);
