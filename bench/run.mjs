#!/usr/bin/env node
// `npm run bench`: measures the playground against baselines taken in the same run, in headless Chromium
// (and in Node for the proxy), prints a table and writes the figures to bench/results.json.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { build, preview, runnerImport } from "vite";
import { CHROMIUM_ARGS, findChromium } from "../scripts/chromium-path.mjs";
import { appBenchmarks, largeSessions, markdownBenchmarks, streamingBenchmarks } from "./app-bench.mjs";
import { floorJs, INITIAL_JS_BUDGET, initialAssets } from "../scripts/bundle-budget.mjs";
import { callsBenchmarks } from "./calls-bench.mjs";
import { htmlExportBenchmarks } from "./html-bench.mjs";
import { importsBenchmarks } from "./imports-bench.mjs";
import { lharBenchmarks } from "./lhar-bench.mjs";
import { sendBenchmarks } from "./send-bench.mjs";
import { variantsBenchmarks } from "./variants-bench.mjs";
import { format, goalMet, markdownTable } from "./rows.mjs";
import { median, summarize } from "./stats.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "bench", ".out");
const quick = process.argv.includes("--quick");
// Sessions of 100,000 facts take minutes to plant and open: skippable on slow machines, run by default.
const huge = !process.argv.includes("--skip-100k");
const RUNS = quick ? 3 : 7;
// Only the LHAR import rows (a fresh build, one browser): `-- --lhar-only`.
const lharOnly = process.argv.includes("--lhar-only");
// Only the hostile session files' import rows (a fresh build, one browser): `-- --imports-only`.
const importsOnly = process.argv.includes("--imports-only");
// Only the live pi row (it starts two real pi processes and a playground of its own): `-- --live-pi-only`.
const livePiOnly = process.argv.includes("--live-pi-only");
// Only the proxy's memory under load (a standalone proxy process of its own): `-- --server-memory-only`.
const serverMemoryOnly = process.argv.includes("--server-memory-only");
// Only the HTML export's rows (its size against the JSON export, its first render from disk): `-- --html-only`.
const htmlOnly = process.argv.includes("--html-only");
// Only the replies' rows (Markdown and long plain text, streamed in the app): `-- --replies-only`.
const repliesOnly = process.argv.includes("--replies-only");
// Only the variants' rows (three columns streaming side by side in the app): `-- --variants-only`.
const variantsOnly = process.argv.includes("--variants-only");
// Only the sessions of 1,000 and 100,000 facts (open, scroll, jump, streaming into the largest): `-- --sessions-only`.
const sessionsOnly = process.argv.includes("--sessions-only");
// Only the sends' rows (the longest task before the first token at 10,000 and 100,000 facts): `-- --send-only`.
const sendOnly = process.argv.includes("--send-only");
// Only the calls view's rows (a call's append at 1,000 calls, the view's open at 10 and 1,000): `-- --calls-only`.
const callsOnly = process.argv.includes("--calls-only");
// Only the streaming rows (per frame, the app against pages without it and its own page frozen): `-- --streaming-only`.
const streamingOnly = process.argv.includes("--streaming-only");
// Only the anatomy's rows (the next and a recorded call's composition, the timeline): `-- --anatomy-only`.
const anatomyOnly = process.argv.includes("--anatomy-only");
/** The rows of the app in Chromium beside the LHAR import, the replies and the variants. */
const everything =
  !lharOnly &&
  !repliesOnly &&
  !variantsOnly &&
  !importsOnly &&
  !sessionsOnly &&
  !sendOnly &&
  !callsOnly &&
  !streamingOnly &&
  !anatomyOnly;

const rows = [];
const started = Date.now();
/** The Chromium the run measured in, as it names itself (set when a browser is launched). */
let browserVersion;

function record(subject, work, samples, baselineLabel, baselineSamples, extra = {}) {
  const value = summarize(samples);
  const baseline = baselineSamples ? summarize(baselineSamples) : undefined;
  const ratio = baseline && baseline.median > 0 ? value.median / baseline.median : undefined;
  const row = {
    subject,
    work,
    unit: extra.unit ?? "ms",
    ...value,
    baseline: baselineLabel,
    baselineMedian: baseline?.median,
    ratio,
    ...extra,
  };
  rows.push(row);
  console.log(
    `  ${subject} · ${work}: ${format(value.median, row.unit)} (vs ${baselineLabel}: ${baseline ? format(baseline.median, row.unit) : "-"})`,
  );
  return row;
}

async function buildAll() {
  console.log("Building the app and the benchmark bundle…");
  await build({ root, logLevel: "error" });
  // The import rows drive the app alone.
  if (lharOnly || importsOnly) return;
  // The HTML export inlines the viewer, built beside the app.
  if (everything) await build({ root, configFile: join(root, "vite.viewer.config.ts"), logLevel: "error" });
  await build({
    root,
    configFile: false,
    logLevel: "error",
    // The anatomy's timeline is measured as the component the app renders; its styles go with it.
    plugins: [svelte({ emitCss: false })],
    build: {
      outDir: out,
      emptyOutDir: true,
      minify: true,
      lib: {
        entry: join(root, "bench", "browser-bench.ts"),
        formats: ["iife"],
        name: "piBenchBundle",
        fileName: () => "browser-bench.js",
      },
    },
  });
}

async function bundleSizes() {
  console.log("Bundle sizes…");
  const [{ js, css }, floor] = await Promise.all([initialAssets(root), floorJs(root)]);
  record("bundle: initial JS", "gzip", [js], "Agent + streamProxy alone", [floor], {
    unit: "kB",
    goal: `≤ ${INITIAL_JS_BUDGET}× the floor`,
  });
  record("bundle: initial CSS", "gzip", [css], "-", undefined, { unit: "kB" });
  // Loaded only when no proxy is used: the offline models answered in the page.
  const inPage = (await readdir(join(root, "dist", "assets"))).find((name) =>
    /^in-page-proxy-.*\.js$/.test(name),
  );
  if (!inPage) throw new Error("The build has no in-page proxy chunk.");
  const inPageSize = gzipSync(await readFile(join(root, "dist", "assets", inPage))).length / 1024;
  record("bundle: offline models in the page (lazy)", "gzip", [inPageSize], "-", undefined, { unit: "kB" });
  // What the first paint does without: each a chunk of its own, requested when first needed.
  const names = await readdir(join(root, "dist", "assets"));
  const lazy = [
    ["the Agent and its stream (requested as a session opens)", /^agent-runtime-.*\.js$/],
    ["session validators (requested as storage opens)", /^(validator|validate|entry-validate)-.*\.js$/],
    ["inspector", /^InspectorPane-.*\.js$/],
    ["calls view", /^CallsView-.*\.js$/],
    ["anatomy (with its tab)", /^AnatomyView-.*\.js$/],
  ];
  for (const [label, pattern] of lazy) {
    const files = names.filter((name) => pattern.test(name));
    if (files.length === 0) throw new Error(`The build has no chunk for ${label}.`);
    let size = 0;
    for (const file of files)
      size += gzipSync(await readFile(join(root, "dist", "assets", file))).length / 1024;
    record(`bundle: ${label} (lazy)`, "gzip", [size], "-", undefined, { unit: "kB" });
  }
}

async function proxyBenchmarks() {
  console.log("Proxy overhead (Node, loopback)…");
  const { module } = await runnerImport(join(root, "bench", "proxy-bench.ts"), {
    configFile: false,
    logLevel: "error",
  });
  const runs = await module.proxyOverhead({ events: 10_000, runs: RUNS });
  const events = runs[0]?.events ?? 10_000;
  record(
    "proxy: 10k SSE events, unpaced",
    `${events} events`,
    runs.map((run) => run.proxyMs),
    "same stream consumed in-process",
    runs.map((run) => run.inProcessMs),
  );
  const perEvent = runs.map((run) => ((run.proxyMs - run.inProcessMs) / run.events) * 1000);
  record("proxy: overhead per event", "unpaced", perEvent, "-", undefined, { unit: "µs" });
  // A model streams at most a few hundred tokens per second; against 1 ms per event the overhead is a fraction.
  const pacedShare = perEvent.map((micros) => micros / 1000);
  rows.push({
    subject: "proxy: overhead vs a 1,000 events/s stream",
    work: "per event",
    unit: "ratio",
    ...summarize(pacedShare),
    baseline: "1 ms per event",
    goal: "< 10%",
  });
  console.log(
    `  proxy overhead at 1,000 events/s: ${(median(pacedShare) * 100).toFixed(2)}% of each event's time`,
  );

  // The same with each call's provider payload captured, as every call from the page is.
  const capturedPerEvent = runs.map((run) => ((run.captureMs - run.inProcessMs) / run.events) * 1000);
  record("proxy, payload capture on: overhead per event", "unpaced", capturedPerEvent, "-", undefined, {
    unit: "µs",
  });
  const capturedShare = capturedPerEvent.map((micros) => micros / 1000);
  rows.push({
    subject: "proxy, payload capture on: overhead vs a 1,000 events/s stream",
    work: "per event",
    unit: "ratio",
    ...summarize(capturedShare),
    baseline: "1 ms per event",
    goal: "< 1%",
  });
  console.log(
    `  proxy overhead at 1,000 events/s, payload capture on: ${(median(capturedShare) * 100).toFixed(2)}% of each event's time`,
  );
  const capture = module.captureCost({ bytes: 1024 * 1024, runs: RUNS * 3 });
  record("payload capture (serialize + scrub)", "1 MB request body, once per call", capture, "-", undefined);
}

async function livePiBenchmarks() {
  console.log("Live pi: a real pi's time per call, watched by a running playground vs not (Node 22)…");
  const { module } = await runnerImport(join(root, "bench", "live-pi-bench.ts"), {
    configFile: false,
    logLevel: "error",
  });
  const result = await module.livePiOverhead({ calls: quick ? 30 : 100 });
  if (result.liveEntries !== result.piEntries)
    throw new Error(
      `The playground holds ${result.liveEntries} of the watched pi's ${result.piEntries} entries: the benchmark watched nothing.`,
    );
  record(
    "live pi: time per call, extension + running playground",
    `${result.withMs.length} calls, in turn`,
    result.withMs,
    "the same prompts on a pi without the extension",
    result.withoutMs,
    { goal: "ratio ≤ 1.05" },
  );
  // Each prompt's time against the same prompt's on the other pi, run next to it: the load of a shared
  // machine moves both alike, so the median of these ratios is the steadier figure.
  const paired = result.withMs.map((ms, index) => ms / result.withoutMs[index]);
  const row = record(
    "live pi: time per call, paired with the same prompt without",
    `${paired.length} pairs`,
    paired,
    "-",
    undefined,
    { unit: "×", goal: "≤ 1.05×" },
  );
  row.ratio = row.median;
  record(
    "live pi: time per call, extension with the playground down",
    `${result.downMs.length} calls, in turn`,
    result.downMs,
    "the same prompts on a pi without the extension",
    result.withoutMs,
    { goal: "within noise" },
  );
  if (result.withCpuMs.length > 0) {
    record(
      "live pi: pi's CPU time per call, extension + running playground",
      `${result.withCpuMs.length} blocks of 10 calls`,
      result.withCpuMs,
      "the pi without the extension",
      result.withoutCpuMs,
    );
    record(
      "live pi: the playground server's CPU time per watched call",
      `${result.playgroundCpuMs.length} blocks of 10 calls`,
      result.playgroundCpuMs,
      "-",
      undefined,
    );
  }
}

async function serverMemoryBenchmarks() {
  console.log("Proxy memory under load (a standalone proxy process, resident set from /proc)…");
  if (process.platform !== "linux") {
    console.log("  skipped: the resident set is read from /proc, which only Linux has");
    return;
  }
  await build({ root, configFile: join(root, "vite.proxy.config.ts"), logLevel: "error" });
  const { module } = await runnerImport(join(root, "bench", "server-memory-bench.ts"), {
    configFile: false,
    logLevel: "error",
  });
  const loads = await module.serverMemory({ root, settleMs: quick ? 2_000 : 5_000 });
  for (const load of loads) {
    const added = load.peakMb - load.idleMb;
    const statuses = Object.entries(load.statuses)
      .map(([status, count]) => `${count}× ${status}`)
      .join(", ");
    const row = record(
      `proxy memory: ${load.name}`,
      `${statuses}; ${(load.ms / 1000).toFixed(1)} s`,
      [load.peakMb],
      "the idle proxy's resident set",
      [load.idleMb],
      { unit: "MB", boundMb: load.boundMb, goal: `kept after a collection ≤ ${load.boundMb} MB + 8 MB` },
    );
    row.addedMb = added;
    row.settledMb = load.settledMb;
    row.collectedMb = load.collectedMb;
    row.heldMb = load.heldMb;
    row.heldAddedMb = load.heldMb - load.idleHeldMb;
    row.met = row.heldAddedMb <= load.boundMb + 8;
    for (const reason of load.dropReasons) console.log(`    ${reason}`);
    console.log(
      `    peak adds ${added.toFixed(0)} MB to ${load.idleMb.toFixed(0)} MB idle (the limits let it keep: ${load.boundMb} MB); ${load.settledMb.toFixed(0)} MB after it ended, ${load.collectedMb.toFixed(0)} MB after a full collection, which holds ${(load.heldMb - load.idleHeldMb).toFixed(0)} MB more heap and buffers than before the load`,
    );
  }
}

/** The anatomy's rows, on a page that has the benchmark bundle. */
async function anatomyBenchmarks(page) {
  const composition = await page.evaluate(
    ([n, runs]) => window.piBench.anatomyComposition(n, runs),
    [10_000, RUNS * 3],
  );
  record(
    "anatomy: composition of the next call",
    "10,000 facts",
    composition.live,
    "plain convertToLlm (floor)",
    composition.floor,
    { goal: "< 16 ms" },
  );
  record(
    "anatomy: composition of a recorded call",
    "10,000 facts, read from storage",
    composition.recorded,
    "plain convertToLlm (floor)",
    composition.floor,
    { goal: "< 16 ms" },
  );
  const timeline = await page.evaluate(
    ([n, runs]) => window.piBench.timelineRender(n, runs),
    [1_000, RUNS * 2],
  );
  if (timeline.circles !== 1_000)
    throw new Error(`the timeline drew ${timeline.circles} points for 1,000 calls`);
  record("anatomy: timeline rendered", "1,000 calls", timeline.subject, "-", undefined, { goal: "< 100 ms" });
}

/** The anatomy's rows alone, on a page of their own. */
async function anatomyOnlyBenchmarks(browser, baseURL) {
  console.log("The anatomy (Chromium)…");
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${baseURL}/api/session`);
  await page.addScriptTag({ path: join(out, "browser-bench.js") });
  await anatomyBenchmarks(page);
  await context.close();
}

async function browserMicroBenchmarks(browser, baseURL) {
  console.log("Model view and IndexedDB (Chromium)…");
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${baseURL}/api/session`);
  await page.addScriptTag({ path: join(out, "browser-bench.js") });

  for (const count of huge ? [1_000, 10_000, 100_000] : [1_000, 10_000]) {
    const runs = count > 10_000 ? RUNS : RUNS * 3;
    const result = await page.evaluate(([n, r]) => window.piBench.modelView(n, r), [count, runs]);
    const work = `${count.toLocaleString("en-US")} facts`;
    record(
      "model view update after an append",
      work,
      result.subject,
      "plain convertToLlm (floor)",
      result.floor,
      {
        goal: count === 10_000 ? "ratio ≤ 1.5" : count === 100_000 ? "< 50 ms" : undefined,
      },
    );
    record(
      "model view rebuild (branch switch, edit)",
      work,
      result.rebuild,
      "plain convertToLlm (floor)",
      result.floor,
    );
    record(
      "model view, cold (no cache)",
      work,
      result.cold,
      "convertToLlm, first pass (floor)",
      result.coldFloor,
      {
        goal: count === 10_000 ? "ratio ≤ 3" : undefined,
      },
    );
  }
  await anatomyBenchmarks(page);
  const append = await page.evaluate((runs) => window.piBench.idbAppend(runs), quick ? 2 : 4);
  record("IndexedDB append", "message #10,000", append.at10k, "message #10", append.at10, {
    goal: "ratio ≤ 1.5",
  });
  record(
    "whole-transcript rewrite",
    "message #10,000",
    append.rewriteAt10k,
    "append of message #10,000",
    append.at10k,
  );
  record("whole-transcript rewrite", "message #10", append.rewriteAt10, "append of message #10", append.at10);
  const treeAppend = await page.evaluate((runs) => window.piBench.idbAppendTree(runs), quick ? 2 : 4);
  record(
    "IndexedDB append, tree entries",
    "entry #10,000 (100 branches)",
    treeAppend.at10k,
    "entry #10",
    treeAppend.at10,
    { goal: "ratio ≤ 1.5" },
  );
  const treeOpen = await page.evaluate((runs) => window.piBench.treeOpen(runs), RUNS);
  record(
    "session open (read, validate, path, projection, tree)",
    "10,000 entries, 100 branches",
    treeOpen.tree,
    "flat 10,000 entries",
    treeOpen.flat,
    { goal: "ratio < 1.2" },
  );
  for (const count of [1_000, 10_000]) {
    const open = await page.evaluate(([n, runs]) => window.piBench.sessionOpen(n, runs), [count, RUNS]);
    record(
      "session open (read + validate)",
      `${count.toLocaleString("en-US")} messages`,
      open.subject,
      "raw getAll (floor)",
      open.floor,
      { goal: count === 10_000 ? "ratio ≤ 1.2" : undefined },
    );
  }
  await context.close();
}

async function main() {
  await rm(join(root, "bench", "results.json"), { force: true });
  if (livePiOnly) {
    await build({ root, logLevel: "error" });
    await livePiBenchmarks();
    printTable();
    return;
  }
  if (serverMemoryOnly) {
    await serverMemoryBenchmarks();
    printTable();
    return;
  }
  if (htmlOnly) {
    await htmlOnlyBenchmarks();
    await writeResults();
    return;
  }
  await buildAll();
  if (everything) {
    await bundleSizes();
    await proxyBenchmarks();
    await serverMemoryBenchmarks();
    await livePiBenchmarks();
  }

  const server = await preview({
    root,
    logLevel: "error",
    preview: { port: Number(process.env.BENCH_PORT) || 4391, strictPort: false, host: "127.0.0.1" },
  });
  const address = server.httpServer.address();
  const baseURL = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 4391}`;
  const executablePath = await findChromium();
  if (!executablePath)
    throw new Error("No Chromium found: run scripts/ensure-chromium.mjs or set CHROMIUM_PATH.");
  // --expose-gc: single-call timings start from a collected heap (bench-support's collectGarbage).
  const browser = await chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS, "--js-flags=--expose-gc"],
  });
  browserVersion = `Chromium ${browser.version()}, headless`;
  // What every benchmark of the app in Chromium is given: the browser, the served build, the benchmark's own
  // bundle, its sample count and where it records.
  const app = { browser, baseURL, benchBundle: join(out, "browser-bench.js"), runs: quick ? 2 : 3, record };
  try {
    if (importsOnly) {
      await importsBenchmarks({ browser, baseURL, runs: quick ? 1 : 2, record });
    } else if (sessionsOnly) {
      await largeSessions({ ...app, huge });
    } else if (sendOnly) {
      await sendBenchmarks({ ...app, huge });
    } else if (callsOnly) {
      await callsBenchmarks({ ...app, runs: quick ? 3 : 7 });
    } else if (streamingOnly) {
      await streamingBenchmarks(app);
    } else if (anatomyOnly) {
      await anatomyOnlyBenchmarks(browser, baseURL);
    } else if (everything) {
      await browserMicroBenchmarks(browser, baseURL);
      await callsBenchmarks({ ...app, runs: quick ? 3 : 7 });
      await appBenchmarks({ ...app, huge });
      await sendBenchmarks({ ...app, huge });
    }
    if (everything || variantsOnly) {
      const perFrame = await variantsBenchmarks(app);
      console.log(
        `  three variants against one: ${perFrame.ratio?.toFixed(2)}× the main thread per frame (goal ≤ 1.5×)`,
      );
    }
    if (everything || repliesOnly) {
      await markdownBenchmarks(app);
    }
    if (everything || lharOnly) await lharBenchmarks({ browser, baseURL, runs: quick ? 2 : 3, record });
    if (everything) await htmlExportBenchmarks({ browser, runs: quick ? 2 : 3, record });
  } finally {
    await browser.close();
    await new Promise((resolve) => server.httpServer.close(resolve));
  }

  await writeResults();
}

/** The HTML export's rows alone: the app and its viewer built, files opened from disk (no server). */
async function htmlOnlyBenchmarks() {
  console.log("Building the app and its viewer…");
  await build({ root, logLevel: "error" });
  await build({ root, configFile: join(root, "vite.viewer.config.ts"), logLevel: "error" });
  const executablePath = await findChromium();
  if (!executablePath)
    throw new Error("No Chromium found: run scripts/ensure-chromium.mjs or set CHROMIUM_PATH.");
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  browserVersion = `Chromium ${browser.version()}, headless`;
  try {
    await htmlExportBenchmarks({ browser, runs: quick ? 2 : 3, record });
  } finally {
    await browser.close();
  }
}

async function writeResults() {
  printTable();
  const executablePath = await findChromium();
  const results = {
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cores: cpus().length,
      cpu: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      chromium: executablePath,
      browser: browserVersion,
    },
    rows,
  };
  await writeFile(join(root, "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote bench/results.json (${results.durationSeconds} s).`);
}

function printTable() {
  // A row that judged itself (the proxy's memory reads what was held, not its median) keeps its verdict.
  for (const row of rows) row.met ??= goalMet(row);
  console.log(`\n${markdownTable(rows)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
