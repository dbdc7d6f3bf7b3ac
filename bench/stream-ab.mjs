// Two builds side by side, streaming into the same large session: each build on its own page, streams
// alternating A B B A…, each traced. For every stream, the longest main-thread task from the first token
// until 200 ms after the reply's end (the window of the streaming rows' `longest` and `dropped`), by wall
// clock (`dur`) and by CPU (`tdur`): on a loaded machine the wall clock shows the load, the CPU time the
// page's own work. Also the benchmark's own counts (Long Tasks API, dropped frames).
//
// Build each commit (`npx vite build --outDir <dir> --emptyOutDir`), serve each (`npx vite preview --outDir
// <dir> --port <port> --strictPort`), then, with the benchmark's bundle built (`npm run bench` leaves it in
// bench/.out):
//   VARIANTS='{"A":"http://127.0.0.1:<portA>","B":"http://127.0.0.1:<portB>"}' FACTS=100000 ROUNDS=6 \
//     node bench/stream-ab.mjs

import { chromium } from "@playwright/test";
import { join } from "node:path";
import { findChromium, CHROMIUM_ARGS } from "../scripts/chromium-path.mjs";
import { openApp, stream } from "./app-page.mjs";

const variants = JSON.parse(process.env.VARIANTS ?? "{}");
const facts = Number(process.env.FACTS ?? 100_000);
const rounds = Number(process.env.ROUNDS ?? 4);
const bundle = process.env.BUNDLE ?? join(import.meta.dirname, ".out", "browser-bench.js");

/** Mark the benchmark's first token, last token and end in the page's timeline, for the trace to find. */
function markStreams() {
  const bench = window.__bench;
  const expect = bench.expectStream;
  bench.expectStream = () => {
    expect();
    for (const name of ["onFirstToken", "onLastToken", "onFinished"]) {
      const inner = bench[name];
      bench[name] = () => {
        performance.mark(`bench:${name}`);
        inner();
      };
    }
  };
}

const browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
const pages = [];
for (const [name, url] of Object.entries(variants)) {
  const { page, cdp } = await openApp(browser, url, bundle, { facts, inspector: false });
  await page.locator(".messages .item").last().waitFor({ timeout: 180_000 });
  await page.evaluate(markStreams);
  await page.evaluate(() => {
    const chat = document.querySelector(".messages");
    chat.scrollTop = chat.scrollHeight;
  });
  pages.push({ name, page, cdp });
}

const results = {};
for (let round = 0; round < rounds; round++) {
  for (const { name, page, cdp } of round % 2 === 1 ? pages.toReversed() : pages) {
    await browser.startTracing(page, {
      categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"],
    });
    const measured = await stream(page, cdp, 400, 5);
    const events = JSON.parse((await browser.stopTracing()).toString("utf8")).traceEvents;
    const main = new Set(
      events
        .filter((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain")
        .map((event) => `${event.pid}:${event.tid}`),
    );
    const mark = (name) => events.find((event) => event.name === `bench:${name}`)?.ts ?? Number.NaN;
    const first = mark("onFirstToken");
    const end = mark("onFinished") + 200_000;
    const tasks = events.filter(
      (event) =>
        event.ph === "X" &&
        main.has(`${event.pid}:${event.tid}`) &&
        (event.name === "ThreadControllerImpl::RunTask" || event.name === "RunTask") &&
        event.ts >= first &&
        event.ts <= end,
    );
    const wall = Math.max(0, ...tasks.map((task) => task.dur / 1000));
    const cpu = Math.max(0, ...tasks.map((task) => (task.tdur ?? 0) / 1000));
    const result = { longest: measured.longest, dropped: measured.dropped, wall, cpu };
    (results[name] ??= []).push(result);
    console.log(
      `${name} round ${round}: longest task ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU; ` +
        `Long Tasks API ${measured.longest.toFixed(0)} ms, ${measured.dropped} dropped frames`,
    );
  }
}
await browser.close();

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, list] of Object.entries(results)) {
  const summary = ["wall", "cpu", "longest", "dropped"].map(
    (key) =>
      `${key} ${median(list.map((result) => result[key])).toFixed(0)} [${list.map((result) => result[key].toFixed(0)).join(", ")}]`,
  );
  console.log(`${name} medians: ${summary.join(" · ")}`);
}
