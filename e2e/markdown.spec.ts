import type { Browser, Page } from "@playwright/test";
import { expect, lastReply, openPlayground, pickModel, sendMessage, test } from "./support.ts";

/** `_a_a_a…`: Markdown's emphasis matching is quadratic on it; 40 kB used to freeze the tab for seconds. */
const pathological = (length: number) => "_a".repeat(length / 2);

/**
 * The longest main-thread task while `during` runs, in milliseconds of the thread's own CPU time (from a
 * Chromium trace). CPU time rather than wall time, so that other processes competing for the machine's
 * cores cannot make a short task look long: what is measured is the work the page does in one go.
 */
async function longestMainThreadTask(
  browser: Browser,
  page: Page,
  during: () => Promise<void>,
): Promise<number> {
  await browser.startTracing(page, { categories: ["toplevel", "devtools.timeline"] });
  await during();
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: { name: string; pid: number; tid: number; tdur?: number; args?: { name?: string } }[];
  };
  const mainThreads = new Set(
    trace.traceEvents
      .filter((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain")
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const tasks = trace.traceEvents.filter(
    (event) => event.name === "ThreadControllerImpl::RunTask" && mainThreads.has(`${event.pid}:${event.tid}`),
  );
  expect(tasks.length, "the trace recorded the page's main thread").toBeGreaterThan(10);
  return Math.max(...tasks.map((event) => (event.tdur ?? 0) / 1000));
}

test("a streamed reply that is pathological for the Markdown parser never blocks a frame for more than 50 ms", async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  await pickModel(page, "fixture-echo", /^fixture-echo /);
  const source = pathological(40_000);
  await page.getByRole("textbox", { name: "Message" }).fill(source);
  await page.getByRole("button", { name: "Send" }).click();
  // Measured from the moment the reply streams: sending a 40 kB message is not what is under test.
  await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toBeVisible({
    timeout: 30_000,
  });
  const longest = await longestMainThreadTask(browser, page, async () => {
    // The fixture streams the 40 kB back in 200-character pieces over about two seconds.
    await expect(lastReply(page)).toContainText("local/fixture-echo", { timeout: 30_000 });
    // Settled once the whole text shows: formatted, or, past the time budget, as plain text with a note.
    await expect
      .poll(async () => (await lastReply(page).locator(".markdown").textContent())?.trim().length)
      .toBe(source.length);
  });
  expect(longest).toBeLessThan(50);
});

test("an imported reply too costly to format is shown as plain text without freezing the page", async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  const reply = {
    role: "assistant",
    content: [{ type: "text", text: pathological(80_000) }],
    api: "mirror",
    provider: "mirror",
    model: "mirror",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: 2,
  };
  const file = [
    { type: "session", format: "pi-playground-session", version: 1, title: "Heavy reply" },
    { type: "message", message: { role: "user", content: "hi", timestamp: 1 } },
    { type: "message", message: reply },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
  const longest = await longestMainThreadTask(browser, page, async () => {
    await page.getByLabel("Import a session file").setInputFiles({
      name: "heavy.jsonl",
      mimeType: "application/json",
      buffer: Buffer.from(file),
    });
    await expect(lastReply(page).getByText("Shown as plain text: formatting it took too long.")).toBeVisible({
      timeout: 15_000,
    });
  });
  expect(longest).toBeLessThan(50);
});

test.describe("Markdown as people expect", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("tables with borders, code with its language, highlighting loaded on first use, and copy buttons", async ({
    page,
  }) => {
    const requested: string[] = [];
    page.context().on("request", (request) => requested.push(request.url()));
    await openPlayground(page);
    await pickModel(page, "unpaced", /Mirror, unpaced/);
    await sendMessage(page, "Plain **words** first.");
    await expect(lastReply(page).locator("strong")).toHaveText("words", { timeout: 15_000 });
    expect(requested.filter((url) => /highlight-[\w-]+\.js/.test(url))).toEqual([]);

    const prompt = [
      "| Tool | Needs approval |",
      "| --- | --- |",
      "| save_note | yes |",
      "",
      "```typescript",
      "const answer: number = 42; // the answer",
      "```",
    ].join("\n");
    await sendMessage(page, prompt);
    const reply = lastReply(page);
    const cell = reply.getByRole("cell", { name: "save_note" });
    await expect(cell).toBeVisible({ timeout: 15_000 });
    expect(await cell.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe("solid");
    expect(await cell.evaluate((element) => getComputedStyle(element).borderTopWidth)).toBe("1px");

    const code = reply.locator("figure.code-block");
    await expect(code.locator("figcaption")).toContainText("typescript");
    await expect(code.locator(".hljs-keyword").first()).toHaveText("const");
    await expect(code.locator(".hljs-comment")).toHaveText("// the answer");
    expect(requested.filter((url) => /highlight-[\w-]+\.js/.test(url))).toHaveLength(1);

    await code.getByRole("button", { name: "Copy typescript code" }).click();
    await expect(code.getByRole("button", { name: "Copy typescript code: copied" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      "const answer: number = 42; // the answer",
    );

    await reply.getByRole("button", { name: "Copy reply" }).click();
    await expect(reply.getByRole("button", { name: "Copy reply: copied" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("The last user message was:");
    expect(copied).toContain("> | save_note | yes |");

    // Each message of yours has its own Copy, beside it, shown on hover or focus.
    await page.getByRole("article", { name: "Your message" }).last().hover();
    const copyMine = page.getByRole("button", { name: /^Copy message/ }).last();
    await copyMine.click();
    await expect(copyMine).toHaveAccessibleName("Copy message: copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(prompt);
  });
});
