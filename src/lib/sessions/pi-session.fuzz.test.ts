import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzParameters, fuzzTimeout } from "../messages/fuzz.test-support.ts";
import {
  MUTATIONS,
  mutationList,
  PROGRAM_ENTRY_TYPES,
  sessionProgram,
  writeWithPi,
  type FileLine,
  type Mutation,
} from "./pi-session.arbitraries.test-support.ts";
import { expectReadAsPi } from "./pi-reading.test-support.ts";

/**
 * The conformance fuzz: random sessions written by pi coding agent 1.6.0's own SessionManager, mutated the
 * way files in the wild are, read by the playground and compared with pi's own reading of the same file at
 * every leaf, then exported and opened by pi again (see pi-reading.test-support.ts). Unchanged files; each
 * mutation on its own, a few sessions each; random combinations of them. `npm test` runs it at a modest
 * size with a fixed seed; `npm run fuzz` at hundreds of sessions with a fresh one.
 */

type Json = Record<string, unknown>;

/** What the fuzz covered: a size too small to cover every entry type and role fails instead. */
const seen = { entryTypes: new Map<string, number>(), roles: new Map<string, number>() };
const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function written(program: Parameters<typeof writeWithPi>[0]): FileLine[] {
  const lines = writeWithPi(program);
  for (const entry of lines.slice(1) as Json[]) {
    count(seen.entryTypes, entry.type as string);
    const role = (entry.message as Json | undefined)?.role;
    if (typeof role === "string") count(seen.roles, role);
  }
  return lines;
}

function applyAll(lines: FileLine[], mutations: readonly { mutation: number; pick: number }[]): Mutation[] {
  return mutations.flatMap(({ mutation, pick }) => {
    const chosen = MUTATIONS[mutation];
    return chosen?.apply(lines, pick) ? [chosen] : [];
  });
}

const unchanged = fuzzParameters<[unknown, unknown]>(30);
const combined = fuzzParameters<[unknown, unknown, unknown]>(40, 1);

describe("pi session files, fuzzed against pi's own SessionManager", () => {
  it(
    "files as pi wrote them: read as pi reads them at every leaf, exported byte for byte",
    () => {
      fc.assert(
        fc.property(sessionProgram, fc.nat(), (program, leafPick) => {
          expectReadAsPi(written(program), { changed: false, refusing: false, leafPick });
        }),
        unchanged,
      );
    },
    fuzzTimeout(unchanged),
  );

  describe.each(MUTATIONS.map((mutation, index) => ({ mutation, index, name: mutation.name })))(
    "with $name (seed offset $index + 2)",
    ({ mutation, index }) => {
      const parameters = fuzzParameters<[unknown, unknown, unknown]>(4, index + 2);
      it(
        mutation.fate === "kept"
          ? "read as pi reads it at every leaf, and exported so that pi reads the same"
          : "named on its line and never sent; everything else as pi reads it",
        () => {
          fc.assert(
            fc.property(sessionProgram, fc.nat(), fc.nat(), (program, pick, leafPick) => {
              const lines = written(program);
              // Only sessions the mutation finds something to change in count.
              fc.pre(mutation.apply(lines, pick));
              expectReadAsPi(lines, { changed: true, refusing: mutation.fate === "refused", leafPick });
            }),
            parameters,
          );
        },
        fuzzTimeout(parameters),
      );
    },
  );

  it(
    "random combinations of mutations",
    () => {
      fc.assert(
        fc.property(sessionProgram, mutationList, fc.nat(), (program, mutations, leafPick) => {
          const lines = written(program);
          const applied = applyAll(lines, mutations);
          expectReadAsPi(lines, {
            changed: applied.length > 0,
            refusing: applied.some((mutation) => mutation.fate === "refused"),
            leafPick,
          });
        }),
        combined,
      );
    },
    fuzzTimeout(combined),
  );

  afterAll(() => {
    // Every entry type pi writes and every message role came up a few times.
    const few = 3;
    for (const type of PROGRAM_ENTRY_TYPES)
      expect(seen.entryTypes.get(type) ?? 0, type).toBeGreaterThanOrEqual(few);
    for (const role of ["system", "user", "assistant", "toolResult", "bashExecution", "custom"])
      expect(seen.roles.get(role) ?? 0, role).toBeGreaterThanOrEqual(few);
  });
});
