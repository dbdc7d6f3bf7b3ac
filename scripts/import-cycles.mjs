#!/usr/bin/env node
// `npm run lint` runs this: no two source files may import each other, directly or through others.
// ESLint's layer rule keeps folders from doing so; this keeps files within a folder honest too. Static
// imports count, type-only ones included (a type cycle still ties two modules together); a dynamic
// `import()` is a deliberate lazy edge and does not.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const SOURCE = /\.(ts|svelte)$/;
const STATIC_IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+["'](\.{1,2}\/[^"']+)["']/gm;

function sources(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return SOURCE.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** Each file's static imports of other source files. */
export function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    let text = readFileSync(file, "utf8");
    // In a component, only its scripts import.
    if (file.endsWith(".svelte"))
      text = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join("\n");
    const targets = [...text.matchAll(STATIC_IMPORT)]
      .map((match) => resolve(dirname(file), match[1]))
      .filter((target) => known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** One cycle per strongly tied group, as a list of files (first repeated at the end); none: []. */
export function findCycles(graph) {
  const cycles = [];
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const visit = (file) => {
    state.set(file, 1);
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 1) cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 2);
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cycles = findCycles(importGraph(sources(join(root, "src"))));
  for (const cycle of cycles)
    console.error(`Import cycle: ${cycle.map((file) => relative(root, file)).join(" → ")}`);
  if (cycles.length > 0) process.exit(1);
  console.log("No import cycles between source files.");
}
