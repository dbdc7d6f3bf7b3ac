import { spawn, type ChildProcess } from "node:child_process";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  FIXTURE_PORT,
  OTHER_STATIC_PORT,
  PROXY_PORT,
  PROXY_TOKEN,
  SPARE_PORT,
  STATIC_PORT,
  staticUrl,
} from "./ports.ts";
import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/**
 * The static page (no API of its own) using `npm run proxy` on another port: connected by address and
 * token in the page, refused when its origin is not admitted, and told plainly what is wrong when the
 * address, the token or the proxy itself is, while the offline models keep answering in the page.
 */

const PROXY = `http://127.0.0.1:${PROXY_PORT}`;
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}`;

// A refused, absent or stopped proxy fails its requests, which the browser reports in the console (a proxy
// stopped while a response is still open ends it incomplete). Each is what the test is about.
test.use({
  allowConsoleErrors: [
    "net::ERR_INCOMPLETE_CHUNKED_ENCODING",
    "the server responded with a status of 401",
    "the server responded with a status of 403",
    "blocked by CORS policy",
    "net::ERR_CONNECTION_REFUSED",
    "net::ERR_FAILED",
  ],
});

test.beforeEach(async ({ request }) => {
  await request.post(`${FIXTURE}/__reset`);
});

async function openSettings(page: Page) {
  await page.getByRole("button", { name: /^(Proxy:|No proxy)/ }).click();
  const dialog = page.getByRole("dialog", { name: "Proxy" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function connect(page: Page, url: string, token: string) {
  const dialog = await openSettings(page);
  await dialog.getByLabel("Proxy address").fill(url);
  await dialog.getByLabel("Proxy token").fill(token);
  await dialog.getByRole("button", { name: "Connect" }).click();
  return dialog;
}

async function pickModel(page: Page, search: string): Promise<void> {
  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill(search);
  await page.getByRole("option", { name: new RegExp(search) }).click();
  await expect(page.getByRole("button", { name: /^Model:/ })).toContainText(search);
}

/** The offline models still answer: in the page, whatever happened to the proxy. */
async function mirrorStillAnswers(page: Page, question: string): Promise<void> {
  await sendMessage(page, question);
  await expect(lastReply(page).locator("blockquote")).toHaveText(question, { timeout: 15_000 });
}

async function fixtureRequests(request: APIRequestContext): Promise<unknown[]> {
  return ((await (await request.get(`${FIXTURE}/__requests`)).json()) as { requests: unknown[] }).requests;
}

test("a static page connects to a proxy on another origin and reaches the local model server through it", async ({
  page,
  request,
}) => {
  await openPlayground(page, staticUrl());
  await connect(page, PROXY, PROXY_TOKEN);
  await expect(page.getByRole("dialog", { name: "Proxy" })).toBeHidden();
  await expect(page.getByRole("button", { name: `Proxy: 127.0.0.1:${PROXY_PORT}` })).toBeVisible();

  await pickModel(page, "fixture-tools");
  await sendMessage(page, "What time is it?");
  await expect(page.getByLabel("Result of current_time")).toContainText(/\d{4}-\d{2}-\d{2}T/, {
    timeout: 15_000,
  });
  await expect(lastReply(page)).toContainText("The tool answered:", { timeout: 15_000 });
  const upstream = await fixtureRequests(request);
  expect(upstream).toHaveLength(2);
  // The page's token opens the proxy only: it never travels to the provider.
  expect(JSON.stringify(upstream)).not.toContain(PROXY_TOKEN);

  // Remembered: after a reload the page goes straight back to the same proxy.
  await page.reload();
  await expect(page.getByRole("button", { name: `Proxy: 127.0.0.1:${PROXY_PORT}` })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Model:/ })).toHaveText("Model: fixture-tools");
  expect(await page.evaluate(() => localStorage.getItem("pi-playground:proxy"))).toBe(
    JSON.stringify({ url: PROXY, token: PROXY_TOKEN }),
  );

  // Forgetting it returns to the offline models in the page.
  const dialog = await openSettings(page);
  await dialog.getByRole("button", { name: "Forget this proxy" }).click();
  await expect(page.getByRole("button", { name: "No proxy: Mirror runs in this page" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("pi-playground:proxy"))).toBeNull();
});

test("a page whose origin the proxy does not admit is refused, and told how to admit it", async ({
  page,
  request,
}) => {
  const otherOrigin = `http://127.0.0.1:${OTHER_STATIC_PORT}`;
  await openPlayground(page, staticUrl(OTHER_STATIC_PORT));
  const dialog = await connect(page, PROXY, PROXY_TOKEN);
  await expect(dialog.getByRole("alert")).toContainText(
    `Something answers at ${PROXY} but does not let this page's origin (${otherOrigin}) in. If it is the playground proxy, restart it with ALLOWED_ORIGINS=${otherOrigin}`,
  );
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `ALLOWED_ORIGINS=${otherOrigin}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "No proxy: Mirror runs in this page" })).toBeVisible();
  await mirrorStillAnswers(page, "refused, but still here");

  // A real model is not reached, and says why.
  await page.getByRole("button", { name: /^Model:/ }).click();
  await expect(page.getByRole("option", { name: /fixture-tools/ })).toHaveCount(0);
  expect(await fixtureRequests(request)).toHaveLength(0);
});

test("a wrong token and a wrong address each get their own message, and the offline models keep working", async ({
  page,
}) => {
  await openPlayground(page, staticUrl());

  const dialog = await connect(page, PROXY, "not-the-right-token-123");
  await expect(dialog.getByRole("alert")).toContainText(
    `The proxy at ${PROXY} refused the token. Invalid proxy token`,
  );
  await dialog.getByLabel("Proxy address").fill(`http://127.0.0.1:${SPARE_PORT}`);
  await dialog.getByLabel("Proxy token").fill(PROXY_TOKEN);
  await dialog.getByRole("button", { name: "Connect" }).click();
  await expect(dialog.getByRole("alert")).toContainText(
    `Nothing answers at http://127.0.0.1:${SPARE_PORT}. Start the proxy there (npm run proxy), or check the address.`,
  );

  // Mistakes the page can see for itself never leave it.
  await dialog.getByLabel("Proxy address").fill("127.0.0.1:4180");
  await dialog.getByRole("button", { name: "Connect" }).click();
  await expect(dialog.getByLabel("Proxy address")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByRole("alert")).toContainText("is not an address");
  await dialog.getByLabel("Proxy address").fill(PROXY);
  await dialog.getByLabel("Proxy token").fill("sk-ant-api03-my-real-key");
  await dialog.getByRole("button", { name: "Connect" }).click();
  await expect(dialog.getByRole("alert")).toContainText("That looks like a provider API key");
  expect(await page.evaluate(() => localStorage.getItem("pi-playground:proxy"))).not.toContain("sk-ant");

  await dialog.getByRole("button", { name: "Close" }).click();
  await mirrorStillAnswers(page, "no proxy, no problem");
});

test.describe("a proxy that goes away mid-session", () => {
  let proxy: ChildProcess | undefined;

  test.afterEach(() => {
    proxy?.kill("SIGKILL");
  });

  /** `npm run proxy`'s build, started on the spare port for this test alone. */
  async function startProxy(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["dist-proxy/proxy-main.js"], {
      env: {
        ...process.env,
        PORT: String(SPARE_PORT),
        ALLOWED_ORIGINS: `http://127.0.0.1:${STATIC_PORT}`,
        PROXY_TOKEN,
        LOCAL_OPENAI_BASE_URL: `${FIXTURE}/v1`,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("listening on")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the proxy exited with ${code}`)));
    });
    return child;
  }

  test("is reported beside the model picker, and the offline models carry on in the page", async ({
    page,
  }) => {
    proxy = await startProxy();
    const spare = `http://127.0.0.1:${SPARE_PORT}`;
    const streams: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/stream")) streams.push(request.url());
    });
    await openPlayground(page, staticUrl());
    await connect(page, spare, PROXY_TOKEN);
    await expect(page.getByRole("button", { name: `Proxy: 127.0.0.1:${SPARE_PORT}` })).toBeVisible();
    await sendMessage(page, "through the proxy");
    await expect(lastReply(page).locator("blockquote")).toHaveText("through the proxy", { timeout: 15_000 });
    expect(streams).toEqual([`${spare}/api/stream`]);

    const exited = new Promise((resolve) => proxy?.once("exit", resolve));
    proxy.kill("SIGTERM");
    await exited;

    await mirrorStillAnswers(page, "and now without it");
    await expect(
      page.getByRole("alert").filter({ hasText: `The proxy at ${spare} stopped answering at` }),
    ).toContainText("Meanwhile the offline Mirror models run in this page.");
    await expect(page.getByRole("button", { name: "No proxy: Mirror runs in this page" })).toBeVisible();
    const conversation = page.getByRole("region", { name: "Conversation" });
    await expect(conversation.getByRole("alert")).toHaveCount(0);

    // Once it is back, Reconnect returns to it.
    proxy = await startProxy();
    await page.getByRole("button", { name: "Reconnect" }).click();
    await expect(page.getByRole("button", { name: `Proxy: 127.0.0.1:${SPARE_PORT}` })).toBeVisible();
    await sendMessage(page, "back again");
    await expect(lastReply(page).locator("blockquote")).toHaveText("back again", { timeout: 15_000 });
    expect(streams.filter((url) => url === `${spare}/api/stream`).length).toBeGreaterThanOrEqual(2);
  });
});
