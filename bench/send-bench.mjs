// Sending a request in large sessions: the longest task on the page's thread from the click on Send until
// the first token arrives, read from a Chromium trace (every task, not only those past the 50 ms the Long
// Tasks API reports), against the same send in an empty session.

import {
  longestOf,
  longestTracedTask,
  mainThreadTasks,
  measureStream,
  openApp,
  plantSession,
  settled,
  TRACED_CATEGORIES,
} from "./app-page.mjs";

/**
 * Resolve once the page's thread has been idle for a while: `calm` idle callbacks in a row that each had a
 * whole idle period (the app's idle work after opening a session, such as its caches, is then done). A person
 * types their message after a session opened; the send is measured after that.
 */
export function quiet(page, calm = 3) {
  return page.evaluate(
    (needed) =>
      new Promise((resolve) => {
        let inARow = 0;
        const started = performance.now();
        const look = (deadline) => {
          inARow = deadline.timeRemaining() >= 40 ? inARow + 1 : 0;
          // A machine busy with other work may never leave the page a whole idle period: not forever.
          if (inARow >= needed || performance.now() - started > 30_000) resolve();
          else requestIdleCallback(look);
        };
        requestIdleCallback(look);
      }),
    calm,
  );
}

/**
 * One send of a short reply in the open session: the longest main-thread task between the click on Send and
 * the first token (a task running across the click counts from its start), from a Chromium trace; with the
 * same apart from the garbage collector's time, and the collector's most in one task (`longestOf`).
 */
export async function tracedSend(browser, page, cdp) {
  await page.getByRole("textbox", { name: "Message" }).fill("benchmark prompt");
  const sendButton = page.getByRole("button", { name: "Send", exact: true });
  await sendButton.waitFor();
  await page.evaluate(() => {
    window.__bench.begin = () => {
      performance.mark("bench:send");
      window.__bench.sendMarkAt = performance.now();
      [...document.querySelectorAll("button")]
        .find((button) => button.textContent?.trim() === "Send")
        .click();
    };
  });
  await browser.startTracing(page, { categories: [...TRACED_CATEGORIES, "blink.user_timing"] });
  let traced;
  let firstTokenAt;
  let sendMarkAt;
  try {
    await measureStream(page, cdp, 20, 5);
    ({ firstTokenAt, sendMarkAt } = await page.evaluate(() => ({
      firstTokenAt: window.__bench.firstTokenAt,
      sendMarkAt: window.__bench.sendMarkAt,
    })));
  } finally {
    traced = await browser.stopTracing();
  }
  await sendButton.waitFor({ timeout: 120_000 });
  const { events, tasks } = mainThreadTasks(traced);
  const mark = events.find((event) => event.name === "bench:send");
  if (!mark) throw new Error("the trace has no mark of the send");
  // The first token's time, on the trace's clock: the mark's trace time plus the page's time between them.
  const firstToken = mark.ts + (firstTokenAt - sendMarkAt) * 1000;
  return longestOf(tasks.filter((task) => task.end > mark.ts && task.start < firstToken));
}

/** Opens the app on a session of `facts` facts (1: an empty session), settled and idle. */
export async function openSession(browser, baseURL, benchBundle, facts) {
  const opened = await openApp(browser, baseURL, benchBundle, { facts: 1, inspector: false });
  if (facts > 1) {
    await plantSession(opened.page, facts);
    await opened.page.reload();
    await opened.page.locator(".messages .item").last().waitFor({ timeout: 180_000 });
  }
  await settled(opened.page);
  await quiet(opened.page);
  return opened;
}

/**
 * The longest task of pi's own `Agent`, with `facts` facts and nothing of the app, from `prompt()` until it
 * calls its stream function: what any send through pi pays before its request can leave.
 */
export async function agentFloor(browser, baseURL, benchBundle, facts, runs) {
  const { context, page } = await openApp(browser, baseURL, benchBundle, { facts: 1, inspector: false });
  try {
    await page.evaluate((count) => window.piBench.prepareAgentFloor(count), facts);
    const samples = [];
    for (let run = 0; run < runs; run++) {
      await quiet(page);
      samples.push(
        await longestTracedTask(browser, page, () => page.evaluate(() => window.piBench.promptAgentFloor())),
      );
    }
    return samples;
  } finally {
    await context.close();
  }
}

export async function sendBenchmarks({ browser, baseURL, benchBundle, runs, record, huge }) {
  console.log("Sending a request: the longest task before the first token…");
  const sizes = huge ? [1, 10_000, 100_000] : [1, 10_000];
  const sends = {};
  const piAlone = {};
  const shown = (samples) =>
    samples
      .map(({ longest, collector }) => `${longest.toFixed(1)} (collector ${collector.toFixed(1)})`)
      .join(", ");
  for (const facts of sizes) {
    piAlone[facts] = await agentFloor(browser, baseURL, benchBundle, facts, runs);
    console.log(`  pi's Agent alone, ${facts.toLocaleString("en-US")} facts: ${shown(piAlone[facts])} ms`);
  }
  for (const facts of sizes) {
    const { context, page, cdp } = await openSession(browser, baseURL, benchBundle, facts);
    sends[facts] = [];
    for (let run = 0; run < runs; run++) {
      sends[facts].push(await tracedSend(browser, page, cdp));
      await quiet(page);
    }
    console.log(`  ${facts.toLocaleString("en-US")} facts: ${shown(sends[facts])} ms`);
    await context.close();
  }
  const of = (samples, key) => samples.map((sample) => sample[key]);
  const large = sizes.filter((size) => size > 1);
  for (const facts of large) {
    const size = `${facts.toLocaleString("en-US")} facts`;
    const limit = facts === 10_000 ? 16 : 50;
    record(
      "sending a request: longest task before the first token (traced)",
      size,
      of(sends[facts], "longest"),
      "the same send in an empty session",
      of(sends[1], "longest"),
      { goal: `≤ ${limit} ms`, limits: { value: limit } },
    );
    // What pi itself does before the request leaves, in the same run: where it is past a goal, the app's
    // send cannot meet that goal.
    record(
      "sending a request, pi's Agent alone: longest task from prompt() to its stream function (traced)",
      size,
      of(piAlone[facts], "longest"),
      "the same in an empty session",
      of(piAlone[1], "longest"),
      { goal: `the floor of the app's send at ${size}` },
    );
  }
  // The same two with the garbage collector's time taken out of each task: the app's own work against pi's.
  // The collector marks and copies what the page holds, and the app holds more than pi's Agent alone (its
  // projections, the chat's layout, the DOM).
  const collectorRows = [
    [
      "longest task before the first token, the garbage collector's time taken out",
      "apartFromCollector",
      "pi's Agent alone, the same taken out",
    ],
    [
      "the garbage collector's most in one task before the first token",
      "collector",
      "pi's Agent alone, the same",
    ],
  ];
  for (const facts of large)
    for (const [subject, field, baseline] of collectorRows)
      record(
        `sending a request: ${subject}`,
        `${facts.toLocaleString("en-US")} facts`,
        of(sends[facts], field),
        baseline,
        of(piAlone[facts], field),
      );
}
