import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  pickModel,
  sendMessage,
  test,
} from "./support.ts";

/** `_a_a_a…`: Markdown's emphasis matching is quadratic on it; 40 kB used to freeze the tab for seconds. */
const pathological = (length: number) => "_a".repeat(length / 2);

/** What the page asked of each Markdown worker it started, recorded by wrapping the page's `Worker`. */
interface WorkerLog {
  /** The length of each source sent to be rendered, in order. */
  sent: number[];
  /** The most renders ever waiting for an answer at once. */
  mostOutstanding: number;
  terminated: boolean;
}

declare global {
  interface Window {
    markdownWorkers?: WorkerLog[];
  }
}

/**
 * Records every Markdown worker the page starts (the renderer names its worker "markdown"): what it is sent,
 * how many renders wait at once, and whether it is ended. The page's own code is unchanged; only the global
 * `Worker` it calls is wrapped, before any of the page's scripts run.
 */
async function recordMarkdownWorkers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const logs: WorkerLog[] = [];
    window.markdownWorkers = logs;
    const NativeWorker = window.Worker;
    class RecordedWorker extends NativeWorker {
      readonly #log: WorkerLog | undefined;
      #answered = 0;
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (options?.name !== "markdown") return;
        const log: WorkerLog = { sent: [], mostOutstanding: 0, terminated: false };
        logs.push(log);
        this.#log = log;
        this.addEventListener("message", () => this.#answered++);
      }
      override postMessage(message: unknown, options?: StructuredSerializeOptions | Transferable[]): void {
        const log = this.#log;
        if (log) {
          const source = (message as { source?: unknown }).source;
          log.sent.push(typeof source === "string" ? source.length : -1);
          log.mostOutstanding = Math.max(log.mostOutstanding, log.sent.length - this.#answered);
        }
        super.postMessage(message, options as StructuredSerializeOptions);
      }
      override terminate(): void {
        if (this.#log) this.#log.terminated = true;
        super.terminate();
      }
    }
    window.Worker = RecordedWorker;
  });
}

const workerLogs = (page: Page) => page.evaluate(() => window.markdownWorkers ?? []);

/** The page's own thread parses sources up to this length; everything longer goes to the worker. */
const PAGE_PARSES_UP_TO = 1_000;

// What these tests show is the mechanism that keeps the page responsive: a long reply is parsed in the
// worker, one render at a time, and a render that overruns its budget ends the worker. How long the page's
// tasks take is measured by `npm run bench`, not asserted here: a busy machine would fail a time limit.
test("a streamed reply that is pathological for the Markdown parser is parsed in the worker, one render at a time", async ({
  page,
}) => {
  await recordMarkdownWorkers(page);
  await openPlayground(page);
  await pickModel(page, "fixture-echo", /^fixture-echo /);
  const source = pathological(40_000);
  await page.getByRole("textbox", { name: "Message" }).fill(source);
  await page.getByRole("button", { name: "Send" }).click();
  // The fixture streams the 40 kB back in 200-character pieces over about two seconds.
  await expect(lastReply(page)).toContainText("local/fixture-echo", { timeout: 30_000 });
  // Settled once the whole text shows: formatted, or, past the time budget, as plain text with a note.
  await expect
    .poll(async () => (await lastReply(page).locator(".markdown").textContent())?.trim().length, {
      timeout: 30_000,
    })
    .toBe(source.length);

  // In the end the worker either rendered the whole reply, or overran its budget and was ended (the rest of
  // that reply is then shown as plain text with a note, without asking a worker again).
  const note = lastReply(page).getByText("Shown as plain text: formatting it took too long.");
  await expect
    .poll(
      async () => {
        const now = await workerLogs(page);
        if ((await note.count()) > 0)
          return now.some((log) => log.terminated) ? "ended" : "note without an end";
        return Math.max(...now.flatMap((log) => log.sent)) === source.length ? "rendered" : "rendering";
      },
      { timeout: 30_000 },
    )
    .toMatch(/^(ended|rendered)$/);

  const logs = await workerLogs(page);
  const sent = logs.flatMap((log) => log.sent);
  expect(logs.length, "a Markdown worker was started").toBeGreaterThan(0);
  // The growing reply went to the worker as it streamed, never a text short enough for the page to parse...
  expect(Math.min(...sent)).toBeGreaterThan(PAGE_PARSES_UP_TO);
  // ...one render at a time: a newer text waits for the answer and replaces any text waiting before it.
  for (const log of logs) expect(log.mostOutstanding).toBe(1);
});

test("an imported reply too costly to format is ended in the worker after its time budget and shown as plain text", async ({
  page,
}) => {
  await recordMarkdownWorkers(page);
  await openPlayground(page);
  const text = pathological(80_000);
  await importOneReply(page, "Heavy reply", text);
  await expect(lastReply(page).getByText("Shown as plain text: formatting it took too long.")).toBeVisible({
    timeout: 15_000,
  });
  // The page sent the reply to the worker rather than parsing it, and ended the worker when its time ran out.
  const logs = await workerLogs(page);
  expect(logs.flatMap((log) => log.sent)).toContain(text.length);
  expect(logs.filter((log) => log.sent.includes(text.length)).every((log) => log.terminated)).toBe(true);
  // The page stays usable: the composer takes input at once.
  await page.getByRole("textbox", { name: "Message" }).fill("still here");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("still here");
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
    // Polled: the worker's highlighted render may replace the table between two reads.
    await expect
      .poll(() => cell.evaluate((element) => getComputedStyle(element).borderTopStyle))
      .toBe("solid");
    await expect.poll(() => cell.evaluate((element) => getComputedStyle(element).borderTopWidth)).toBe("1px");

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

test("axe-core: a horizontally scrolling code block in the chat can be reached by keyboard and scrolled with the arrows", async ({
  page,
}) => {
  await openPlayground(page);
  await pickModel(page, "unpaced", /Mirror, unpaced/);
  const longLine = `const wide = [${Array.from({ length: 60 }, (_, index) => `"item-${index}"`).join(", ")}];`;
  await sendMessage(page, ["```ts", longLine, "```"].join("\n"));
  const code = lastReply(page).locator("figure.code-block pre");
  await expect(code).toContainText("item-59", { timeout: 15_000 });
  // The worker's highlighted render replaces the first one: wait for it, then for its layout.
  await expect(code.locator(".hljs-string").first()).toBeVisible();
  await expect.poll(() => code.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  await expectAccessible(page, "a reply with a code block wider than the chat");

  // From the block's Copy button, Tab reaches the code itself, and the arrow keys scroll it.
  await lastReply(page).getByRole("button", { name: "Copy ts code" }).focus();
  await page.keyboard.press("Tab");
  await expect(code).toBeFocused();
  for (let press = 0; press < 5; press++) await page.keyboard.press("ArrowRight");
  await expect.poll(() => code.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
});

test("a reply of 3 MB in one block shows its first part with a count of the rest, more on request, and the page stays usable", async ({
  page,
}) => {
  await openPlayground(page);
  // Past the size the Markdown worker takes: shown as plain text, its first 200,000 characters at once.
  const text = "lorem ipsum ".repeat(262_144);
  await importOneReply(page, "Huge reply", text);
  const rest = (text.length - 200_000).toLocaleString("en");
  await expect(lastReply(page).getByText(`… and ${rest} more characters.`)).toBeVisible({ timeout: 30_000 });
  expect((await lastReply(page).locator(".plain-text").textContent())?.length).toBe(200_000);
  // The page answers at once: the composer takes input while the reply is on screen.
  await page.getByRole("textbox", { name: "Message" }).fill("still here");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("still here");
  await lastReply(page).getByRole("button", { name: "Show 200,000 more characters" }).click();
  await expect(
    lastReply(page).getByText(`… and ${(text.length - 400_000).toLocaleString("en")} more characters.`),
  ).toBeVisible();
  expect((await lastReply(page).locator(".plain-text").textContent())?.length).toBe(400_000);
  await expectAccessible(page, "a reply of megabytes shown in part");
});

test("a long paragraph of Markdown is shown in pieces that read as one, with all its text and formatting", async ({
  page,
}) => {
  await openPlayground(page);
  // One paragraph of about 30,000 characters, with emphasis and a link far into it.
  const words = "lorem ipsum ".repeat(1_250);
  const text = `${words}**a bold part** and [a link](https://pi.dev/) ${words}end.`;
  await importOneReply(page, "Long paragraph", text);
  const markdown = lastReply(page).locator(".markdown");
  await expect(markdown.getByText("a bold part")).toHaveJSProperty("tagName", "STRONG", { timeout: 30_000 });
  await expect(markdown.getByRole("link", { name: "a link" })).toHaveAttribute("href", "https://pi.dev/");
  // Several paragraphs, no space between them, holding the paragraph's words and nothing else.
  const pieces = markdown.locator("p");
  expect(await pieces.count()).toBeGreaterThan(3);
  await expect(markdown.locator("p.continued").first()).toHaveCSS("margin-bottom", "0px");
  const shown = (await pieces.allTextContents()).join(" ").replace(/\s+/g, " ").trim();
  expect(shown).toBe(`${words}a bold part and a link ${words}end.`.replace(/\s+/g, " ").trim());
  await expectAccessible(page, "a long paragraph of Markdown in pieces");
});

test("on a phone, Tab to a link far into a long paragraph brings it into view", async ({ page }) => {
  await openPlayground(page);
  // One paragraph of about 32,000 characters, with links 8,000 characters apart.
  const words = "lorem ipsum dolor sit amet ".repeat(300);
  const links = [1, 2, 3].map((at) => `[link ${at}](https://pi.dev/${at})`);
  const text = `${words}${links[0]} ${words}${links[1]} ${words}${links[2]} ${words}end.`;
  await importOneReply(page, "Links in a long paragraph", text);
  const reply = lastReply(page);
  await expect(reply.getByRole("link", { name: "link 3" })).toBeAttached({ timeout: 30_000 });
  // Laid out first on the phone: a piece there is three times as tall as in a wide column, and a piece out
  // of view stands in with an estimate of that height. Scrolling to a link goes by the estimates above it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(reply.getByRole("link", { name: "link 3" })).toBeAttached({ timeout: 30_000 });
  expect(await reply.locator(".markdown p").count()).toBeGreaterThan(5);
  await reply.getByRole("link", { name: "link 1" }).focus();
  for (const at of [1, 2, 3]) {
    const link = reply.getByRole("link", { name: `link ${at}` });
    await expect(link).toBeFocused();
    await expect(link, `link ${at} is in view once focused`).toBeInViewport();
    await page.keyboard.press("Tab");
  }
  await expectAccessible(page, "a long paragraph of Markdown in pieces, on a phone");
});

/** Imports a session of one user message and one assistant reply holding `text`, and opens it. */
async function importOneReply(page: Page, title: string, text: string): Promise<void> {
  const reply = {
    role: "assistant",
    content: [{ type: "text", text }],
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
    { type: "session", format: "pi-playground-session", version: 1, title },
    { type: "message", message: { role: "user", content: "hi", timestamp: 1 } },
    { type: "message", message: reply },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");
  await page.getByLabel("Import a session file").setInputFiles({
    name: `${title.toLowerCase().replaceAll(" ", "-")}.jsonl`,
    mimeType: "application/json",
    buffer: Buffer.from(file),
  });
}
