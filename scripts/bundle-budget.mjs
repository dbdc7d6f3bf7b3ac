#!/usr/bin/env node
// The initial-JS budget: what the built page loads before it can paint, gzip, against the floor of this
// design (pi's Agent and streamProxy bundled alone) measured in the same run. `npm test` fails when the
// page exceeds the budget; `npm run bench` reports the same two figures.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

/** Initial JS may be at most this many times the floor. The one place the number lives. */
export const INITIAL_JS_BUDGET = 2.5;

const gzipKb = (code) => gzipSync(code).length / 1024;

/** The scripts and styles `dist/index.html` loads, gzip, in kB. */
export async function initialAssets(root) {
  const html = await readFile(join(root, "dist", "index.html"), "utf8");
  // Asset URLs are relative ("./assets/…"): the build runs under any path of a static host.
  const assets = [...html.matchAll(/(?:src|href)="(?:\.\/|\/)(assets\/[^"]+\.(?:js|css))"/g)].map(
    (match) => match[1],
  );
  if (!assets.some((asset) => asset.endsWith(".js"))) throw new Error("dist/index.html names no script.");
  let js = 0;
  let css = 0;
  for (const asset of assets) {
    const size = gzipKb(await readFile(join(root, "dist", asset)));
    if (asset.endsWith(".css")) css += size;
    else js += size;
  }
  return { js, css, assets };
}

/** pi's Agent and streamProxy alone, bundled and minified the same way, gzip, in kB. */
export async function floorJs(root) {
  const dir = join(root, "node_modules", ".cache", "bundle-floor");
  await mkdir(dir, { recursive: true });
  const entry = join(dir, "entry.ts");
  await writeFile(
    entry,
    'import { Agent, streamProxy } from "@earendil-works/pi-agent-core";\nconsole.log(Agent, streamProxy);\n',
  );
  const result = await build({
    root,
    configFile: false,
    logLevel: "error",
    build: { write: false, minify: true, rollupOptions: { input: entry, onwarn: () => undefined } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) => item.output);
  return outputs.filter((item) => item.type === "chunk").reduce((sum, chunk) => sum + gzipKb(chunk.code), 0);
}

async function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const [{ js, assets }, floor] = await Promise.all([initialAssets(root), floorJs(root)]);
  const ratio = js / floor;
  const line = `initial JS ${js.toFixed(1)} kB gzip (${assets.filter((a) => a.endsWith(".js")).join(", ")}) = ${ratio.toFixed(2)}× the floor of ${floor.toFixed(1)} kB; budget ${INITIAL_JS_BUDGET}× (${(floor * INITIAL_JS_BUDGET).toFixed(1)} kB)`;
  if (ratio > INITIAL_JS_BUDGET) {
    console.error(`Over budget: ${line}. Load the new code on first use (a dynamic import), or trim it.`);
    process.exit(1);
  }
  console.log(`Within budget: ${line}.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
