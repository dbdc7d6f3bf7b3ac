// Variants side by side in the app: three columns streaming together against one stream on the same page.

import { measureStream, openApp, stream } from "./app-page.mjs";

const TOKENS = 400;
/** 200 tokens a second. */
const INTERVAL_MS = 5;

async function openVariants(page) {
  await page.getByRole("tab", { name: "Variants" }).click();
  await page.getByRole("form", { name: "Prompt every variant" }).waitFor();
  await page.getByRole("radio", { name: "3 variants" }).check();
}

/** Send one prompt to every column; each column's request streams `perRequest[i]` tokens. */
async function streamColumns(page, cdp, perRequest, turn) {
  await page.getByRole("textbox", { name: "Prompt for every variant" }).fill("benchmark prompt");
  await page.evaluate(() => {
    window.__bench.begin = () =>
      [...document.querySelectorAll("button")]
        .find((candidate) => candidate.textContent?.trim() === "Send to every variant")
        .click();
  });
  const result = await measureStream(page, cdp, TOKENS, INTERVAL_MS, undefined, {
    streams: perRequest.length,
    perRequest,
  });
  // The turn is over once every column has ended and the button takes a prompt again.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("button")].find(
        (candidate) => candidate.textContent?.trim() === "Send to every variant",
      )?.disabled === false,
    undefined,
    { timeout: 120_000 },
  );
  const shown = await page.evaluate(
    (number) =>
      [...document.querySelectorAll(`[aria-label^="Turn ${number}, output of variant"]`)].map(
        (output) => output.textContent?.length ?? 0,
      ),
    turn,
  );
  // Each column shows all it streamed: a benchmark of columns that showed nothing measures nothing. The
  // columns' requests leave in no set order, so lengths are matched to token counts sorted.
  const lengths = [...shown].sort((a, b) => a - b);
  [...perRequest]
    .sort((a, b) => a - b)
    .forEach((tokens, index) => {
      if ((lengths[index] ?? 0) < tokens * 5)
        throw new Error(`a variant shows ${lengths[index]} characters of ${tokens} tokens`);
    });
  return result;
}

/**
 * Per run, on a fresh page with the inspector showing the Variants tab: one stream in the chat, then a
 * comparison of three columns where one streams and the other two answer a single token (one stream in
 * the Variants tab), then the three streaming together at 200 tokens/s each (the comparison's second turn,
 * so the three streams have the more to show around them).
 */
export async function variantsBenchmarks({ browser, baseURL, benchBundle, runs, record }) {
  console.log("The app in Chromium: three variants streaming side by side…");
  const results = { chat: [], one: [], three: [] };
  for (let run = 0; run < runs; run++) {
    const { context, page, cdp } = await openApp(browser, baseURL, benchBundle, {
      facts: 1,
      inspector: true,
    });
    await openVariants(page);
    results.chat.push(await stream(page, cdp, TOKENS, INTERVAL_MS));
    results.one.push(await streamColumns(page, cdp, [TOKENS, 1, 1], 1));
    results.three.push(await streamColumns(page, cdp, [TOKENS, TOKENS, TOKENS], 2));
    await context.close();
  }
  const perFrame = (key) =>
    results[key].map((result) => result.streamingMs / Math.max(1, result.streamingFrames));
  const longest = (key) => results[key].map((result) => result.longest);
  const work = "3 columns × 400 tokens at 200 tokens/s each";
  record(
    "three variants streaming: longest task, the replies' ends included",
    work,
    longest("three"),
    "one variant streaming (the other two answer one token)",
    longest("one"),
    { goal: "no task over 50 ms (0 = none over 50 ms)" },
  );
  record(
    "three variants streaming: longest task between the first token and the last",
    work,
    results.three.map((result) => result.tokensLongest),
    "one variant streaming (the other two answer one token)",
    results.one.map((result) => result.tokensLongest),
    { goal: "no task over 50 ms (0 = none over 50 ms)" },
  );
  const perFrameRow = record(
    "three variants streaming: main thread per frame",
    work,
    perFrame("three"),
    "one variant streaming (the other two answer one token)",
    perFrame("one"),
    { goal: "ratio ≤ 1.5" },
  );
  record(
    "three variants streaming: main thread per frame against the chat",
    work,
    perFrame("three"),
    "one stream in the chat, the same page",
    perFrame("chat"),
    { goal: "ratio ≤ 1.5" },
  );
  record(
    "three variants streaming: dropped frames",
    `${work}, 2 s`,
    results.three.map((result) => result.dropped),
    "one variant streaming",
    results.one.map((result) => result.dropped),
    { unit: "count" },
  );
  return perFrameRow;
}
