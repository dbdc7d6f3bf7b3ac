// The calls view in Chromium: opening it on a session with many recorded calls. Calls are recorded with
// the store's own `appendCall` (from the benchmark bundle), into the session the app opened.

import { timeClickUntilShown } from "./app-page.mjs";

/** Open the app with the inspector shown, record `calls` calls in its session, and load it again. */
async function openWithCalls(browser, baseURL, benchBundle, calls) {
  // bypassCSP: the page forbids inline scripts, and the benchmark adds its helpers as one.
  const context = await browser.newContext({ viewport: { width: 1500, height: 900 }, bypassCSP: true });
  await context.addInitScript(() => localStorage.setItem("pi-playground:inspector", "1"));
  const page = await context.newPage();
  await page.goto(baseURL);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await page.addScriptTag({ path: benchBundle });
  await page.evaluate(
    (count) => window.piBench.plantCalls(localStorage.getItem("pi-playground:current-session"), count),
    calls,
  );
  await page.reload();
  await page.getByRole("listbox", { name: "Facts" }).getByRole("option").first().waitFor();
  return { context, page };
}

/** From the click on the Calls tab until the first rows of the list are rendered. */
async function openCallsView(page) {
  const { shown } = await timeClickUntilShown(
    page,
    '[role="tab"]',
    "Calls",
    '[aria-label="Recorded calls"] [role="option"]',
  );
  return shown;
}

export async function callsBenchmarks({ browser, baseURL, benchBundle, runs, record }) {
  console.log("The calls view in Chromium…");
  const append = await browserCallAppend(browser, baseURL, benchBundle, runs);
  record("call record append", "call #1,000", append.at1000, "call #10", append.at10, {
    goal: "ratio ≤ 1.5",
  });

  const open = {};
  for (const calls of [10, 1_000]) {
    open[calls] = [];
    for (let run = 0; run < runs; run++) {
      const { context, page } = await openWithCalls(browser, baseURL, benchBundle, calls);
      open[calls].push(await openCallsView(page));
      const rows = await page.getByRole("listbox", { name: "Recorded calls" }).getByRole("option").count();
      if (rows === 0 || rows > 100)
        throw new Error(`the calls view rendered ${rows} rows of ${calls}; virtualisation failed`);
      await context.close();
    }
  }
  record(
    "calls view open (read + first render)",
    "1,000-call session",
    open[1000],
    "10-call session",
    open[10],
    {
      goal: "< 100 ms",
    },
  );
}

async function browserCallAppend(browser, baseURL, benchBundle, runs) {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${baseURL}/api/session`);
  await page.addScriptTag({ path: benchBundle });
  const result = await page.evaluate((count) => window.piBench.callAppend(count), runs);
  await context.close();
  return result;
}
