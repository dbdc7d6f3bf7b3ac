#!/usr/bin/env node
// `npm run lint` runs this: every package the code imports is declared in package.json. A package that is
// only there because another depends on it can disappear or change with that other package's next version.
// Static imports, re-exports, side-effect imports and dynamic `import()` all count; Node's own modules are
// not packages.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const SOURCE = /\.(ts|mts|js|mjs|svelte)$/;
const SKIP = new Set(["node_modules", "dist", "dist-proxy", "test-results", "playwright-report", ".git"]);
const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s(?:[^'"]*?\sfrom\s)?\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/gm;

/** The packages `source` imports by name (not relative paths, not Node's own modules). */
export function importedPackages(source) {
  const names = new Set();
  for (const match of source.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2];
    if (!specifier || specifier.startsWith(".") || specifier.startsWith("/")) continue;
    if (specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0])) continue;
    // Vite's own virtual modules and query suffixes are not packages.
    if (specifier.startsWith("virtual:") || specifier.startsWith("\0")) continue;
    const parts = specifier.split("/");
    names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
  return names;
}

/** Every import of an undeclared package in the project's sources, as "file: package" lines. */
export function undeclaredImports(projectRoot, declared) {
  const problems = [];
  const visit = (path) => {
    for (const name of readdirSync(path)) {
      if (SKIP.has(name)) continue;
      const full = join(path, name);
      if (statSync(full).isDirectory()) visit(full);
      else if (SOURCE.test(name) && !name.endsWith(".d.ts")) {
        for (const pkg of importedPackages(readFileSync(full, "utf8")))
          if (!declared.has(pkg)) problems.push(`${relative(projectRoot, full)}: ${pkg}`);
      }
    }
  };
  for (const folder of ["src", "e2e", "bench", "scripts"])
    if (existsSync(join(projectRoot, folder))) visit(join(projectRoot, folder));
  for (const name of readdirSync(projectRoot))
    if (SOURCE.test(name) && statSync(join(projectRoot, name)).isFile()) {
      for (const pkg of importedPackages(readFileSync(join(projectRoot, name), "utf8")))
        if (!declared.has(pkg)) problems.push(`${name}: ${pkg}`);
    }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
  ]);
  const problems = undeclaredImports(root, declared);
  if (problems.length > 0) {
    console.error(
      `Imported but not declared in package.json (npm install <package> adds it):\n  ${problems.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log("Every imported package is declared in package.json.");
}
