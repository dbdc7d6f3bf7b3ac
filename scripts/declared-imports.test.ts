import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importedPackages, undeclaredImports } from "./declared-imports.mjs";

const q = (name: string) => `"${name}"`;

describe("the declared-imports check", () => {
  it("finds every kind of import of a package, and nothing else", () => {
    // Written with q() so that this file's own source holds none of these imports.
    const source = [
      `import { a } from ${q("alpha")};`,
      `import type { B } from ${q("@scope/beta/deep/path")};`,
      `import ${q("gamma/side-effect.css")};`,
      `export { d } from ${q("delta")};`,
      `const e = await import(${q("epsilon")});`,
      `import { readFile } from ${q("node:fs")};`,
      `import { join } from ${q("path")};`,
      `import local from ${q("./local.ts")};`,
      `import up from ${q("../up.ts")};`,
    ].join("\n");
    expect([...importedPackages(source)].sort()).toEqual([
      "@scope/beta",
      "alpha",
      "delta",
      "epsilon",
      "gamma",
    ]);
  });

  it("fails on a package imported without being declared", () => {
    const project = mkdtempSync(join(tmpdir(), "declared-imports-"));
    mkdirSync(join(project, "src"));
    writeFileSync(
      join(project, "src", "uses.ts"),
      `import { a } from ${q("declared")};\nconst lazy = () => import(${q("@only/transitive")});\n`,
    );
    expect(undeclaredImports(project, new Set(["declared"]))).toEqual(["src/uses.ts: @only/transitive"]);
    expect(undeclaredImports(project, new Set(["declared", "@only/transitive"]))).toEqual([]);
  });
});
