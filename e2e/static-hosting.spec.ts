import type { Page } from "@playwright/test";
import { staticUrl } from "./ports.ts";
import {
  expect,
  lastReply,
  openPlayground,
  readStoredFacts,
  readStoredSession,
  sendMessage,
  test,
} from "./support.ts";

/**
 * The built app served by a plain static file server under /playground/ (no API, no special headers), as
 * on GitHub Pages: the page says once that there is no proxy, and runs the offline models in the page.
 */

// Every test here fails on any console error (support.ts): a static host logs none, not even a 404 while the page
// looks for a proxy at its own address.

const summary = (page: Page) => page.getByLabel("Summary", { exact: true });

/** Every URL the page requested from the network (the in-page proxy requests nothing). */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

test("Static hosting: the static build served by a plain file server logs no console error, not even a 404 while it looks for a proxy", async ({
  page,
}) => {
  const logged: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") logged.push(message.text());
  });
  const answers: number[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith("/api/session")) answers.push(response.status());
  });
  for (let load = 0; load < 2; load++) {
    if (load === 0) await openPlayground(page, staticUrl());
    else await page.reload();
    await expect(page.getByRole("button", { name: "No proxy: Mirror runs in this page" })).toBeVisible();
  }
  expect(answers).toEqual([200, 200]);
  expect(logged).toEqual([]);
});

test("without a proxy the offline models run in the page: chat, a tool call, the inspector, an injection, a reload", async ({
  page,
}) => {
  const requests = recordRequests(page);
  await openPlayground(page, staticUrl());
  await expect(page.getByRole("button", { name: "No proxy: Mirror runs in this page" })).toBeVisible();
  await expect(
    page.getByRole("status").filter({ hasText: "No proxy answers at this page's address" }),
  ).toHaveCount(1);

  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("I received 2 messages: system, user.", { timeout: 15_000 });
  await sendMessage(page, "compute 12 * (3 + 4)");
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await expect(lastReply(page)).toContainText("returned: 12 * (3 + 4) = 84", { timeout: 15_000 });

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await expect(summary(page)).toHaveText("7 facts → 7 model messages");
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill("Deploy 42 finished");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(summary(page)).toHaveText("8 facts → 7 model messages: 1 hidden");
  await sendMessage(page, "anything new?");
  await expect(lastReply(page)).toContainText(
    "I received 8 messages: system, user, assistant, user, assistant, toolResult, assistant, user.",
    {
      timeout: 15_000,
    },
  );
  // The inspector's last request is the one the stream function sent, here to the in-page proxy.
  await expect(page.locator("details.last-request summary")).toContainText("8 messages to mirror/mirror");

  // The page used its own relative paths, and no proxy: the stream never left the page.
  expect(requests).toContain(`${staticUrl()}api/session`);
  expect(requests.some((url) => url.endsWith("/api/stream"))).toBe(false);
  expect(requests.some((url) => /\/playground\/assets\/in-page-proxy-[\w-]+\.js$/.test(url))).toBe(true);

  const conversation = page.getByRole("region", { name: "Conversation" });
  const before = await conversation.locator("[data-fact-index]").allTextContents();
  const stored = await readStoredFacts(page);
  expect(stored).toHaveLength(10);

  await page.reload();
  await expect(lastReply(page)).toContainText("I received 8 messages");
  // The messages' actions load just after the first paint: the same conversation once they are there.
  await expect.poll(() => conversation.locator("[data-fact-index]").allTextContents()).toEqual(before);
  expect(await readStoredFacts(page)).toEqual(stored);
  await expect(summary(page)).toHaveText("10 facts → 9 model messages: 1 hidden");
  await expect(page.getByRole("complementary", { name: "Notification (info)" })).toContainText(
    "Deploy 42 finished",
  );
  await sendMessage(page, "still here?");
  await expect(lastReply(page).locator("blockquote")).toHaveText("still here?", { timeout: 15_000 });
});

test("the offline models answer the same with the playground's server and without it", async ({
  context,
  baseURL,
}) => {
  async function transcript(url: string): Promise<{ items: string[]; requests: string[] }> {
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openPlayground(page, url);
    await sendMessage(page, "hello");
    await expect(lastReply(page).locator("blockquote")).toHaveText("hello", { timeout: 15_000 });
    await sendMessage(page, "compute 2 + 3");
    await expect(lastReply(page)).toContainText("returned: 2 + 3 = 5", { timeout: 15_000 });
    await sendMessage(page, "show context");
    await expect(lastReply(page)).toContainText("I received 8 messages", { timeout: 15_000 });
    // The facts as stored (the chat renders only the messages in view): each one's role and its text.
    const { messages } = await readStoredSession(page);
    const items = messages.map((value) => {
      const message = value as { role: string; content?: unknown };
      const content = message.content;
      const text = Array.isArray(content)
        ? content.map((part: { text?: string; name?: string }) => part.text ?? part.name ?? "").join("|")
        : String(content ?? "");
      return `${message.role}: ${text}`;
    });
    await page.close();
    return { items, requests };
  }
  const served = await transcript(`${baseURL}/`);
  const inPage = await transcript(staticUrl());
  // The system prompt, three prompts, four replies and the tool result.
  expect(inPage.items).toHaveLength(9);
  expect(inPage.items).toEqual(served.items);
  // With a proxy the page never downloads the offline models; without one it does.
  expect(served.requests.filter((url) => url.includes("in-page-proxy"))).toEqual([]);
  expect(served.requests.some((url) => url.endsWith("/api/stream"))).toBe(true);
  expect(inPage.requests.some((url) => url.includes("in-page-proxy"))).toBe(true);
});

test("a static host sends no framing headers, so the page refuses to run inside a frame", async ({
  page,
}) => {
  await page.setContent(`<iframe title="framed" src="${staticUrl()}"></iframe>`);
  const frame = page.frameLocator("iframe");
  await expect(frame.getByRole("alert")).toHaveText(
    "The playground does not run inside a frame: open it in its own tab.",
  );
  await expect(frame.getByRole("textbox", { name: "Message" })).toHaveCount(0);
});
