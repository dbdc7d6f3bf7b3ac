#!/usr/bin/env node
// `npm run bench:table`: writes the table of bench/results.json (one `npm run bench`) into
// docs/performance.md, between its table markers, with the run's date, length and machine.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { goalMet, markdownTable } from "./rows.mjs";

const results = JSON.parse(await readFile(fileURLToPath(new URL("results.json", import.meta.url)), "utf8"));
const docsPath = fileURLToPath(new URL("../docs/performance.md", import.meta.url));
const docs = await readFile(docsPath, "utf8");
const START = "<!-- bench-table:start -->";
const END = "<!-- bench-table:end -->";
const from = docs.indexOf(START);
const to = docs.indexOf(END);
if (from < 0 || to < from) throw new Error(`docs/performance.md has no ${START} … ${END} block`);
const { machine } = results;
const ran = `From one run of \`npm run bench\`: ${results.generatedAt.slice(0, 16).replace("T", " ")} UTC, ${Math.round(results.durationSeconds / 60)} minutes, on ${machine.cores ?? "?"} cores (${machine.cpu ?? "unknown CPU"}), ${machine.memoryGiB ?? "?"} GiB, Node ${machine.node.replace(/^v/, "")}, ${machine.browser ?? "headless Chromium"}.`;
const block = `${START}\n\n${ran}\n\n${markdownTable(results.rows.map((row) => ({ ...row, met: row.met ?? goalMet(row) })))}\n\n${END}`;
await writeFile(docsPath, docs.slice(0, from) + block + docs.slice(to + END.length));
console.log(`docs/performance.md: ${results.rows.length} rows from ${results.generatedAt}.`);
