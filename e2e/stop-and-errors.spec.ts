import type { AssistantMessage } from "@earendil-works/pi-ai";
import { estimateMessageTokens } from "@earendil-works/pi-ai/utils/estimate";
import { expect, lastReply, openPlayground, readStoredFacts, sendMessage, test } from "./support.ts";

test("Stop mid-stream keeps the partial reply and marks it aborted; Retry answers again", async ({
  page,
}) => {
  await openPlayground(page);
  // A paced reply, so Stop lands mid-stream however busy the machine is (a long reply otherwise streams fast).
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  await sendMessage(page, `please quote this back: ${"lorem ipsum ".repeat(40)}`);
  const streaming = page.getByRole("article", { name: "Assistant reply (streaming)" });
  await expect(streaming).toContainText("I received");
  await page.getByRole("button", { name: "Stop" }).click();

  const aborted = lastReply(page);
  await expect(aborted).toHaveAttribute("data-stop-reason", "aborted");
  await expect(aborted.getByRole("status")).toContainText("Aborted");
  const partial = (await aborted.locator(".markdown").first().textContent()) ?? "";
  expect(partial).toMatch(/^I received/);
  expect(partial).not.toContain(
    "lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum",
  );
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // The provider reported no usage for the stopped reply; what streamed is counted, as an estimate, in the
  // same words in the reply's line and in the session total.
  // The estimate is pi-ai's own, over the stopped reply as stored.
  const facts = await readStoredFacts(page);
  const estimate = estimateMessageTokens(facts.at(-1) as AssistantMessage);
  expect(estimate).toBeGreaterThan(0);
  await expect(aborted.getByLabel("Usage of this reply")).toHaveText(
    `in 0 · out ≈ ${estimate} (estimate) · $0`,
  );
  await expect(page.getByLabel("Session usage")).toHaveText(
    `1 reply · in 0 · out ≈ ${estimate} (estimate) · $0`,
  );

  await aborted.getByRole("button", { name: "Retry" }).click();
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop", { timeout: 30_000 });
});

test.describe("when the proxy cannot be reached", () => {
  test.use({ allowConsoleErrors: ["net::ERR_CONNECTION_REFUSED", "Failed to load resource"] });

  test("a real model's error shows in the conversation and Retry works once it is back", async ({ page }) => {
    await openPlayground(page);
    await page.getByRole("button", { name: /^Model:/ }).click();
    await page.getByRole("combobox", { name: "Search models" }).fill("fixture-tools");
    await page.getByRole("option", { name: /fixture-tools/ }).click();
    await page.route("**/api/stream", (route) => route.abort("connectionrefused"));
    await sendMessage(page, "hello");
    const failed = lastReply(page);
    await expect(failed).toHaveAttribute("data-stop-reason", "error");
    await expect(failed.getByRole("alert")).toContainText("Error");

    await page.unroute("**/api/stream");
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop", { timeout: 15_000 });
    await expect(lastReply(page)).toContainText("Fixture received");
  });

  test("an offline model's request is answered in the page instead, and the proxy is kept", async ({
    page,
  }) => {
    await openPlayground(page);
    await page.route("**/api/stream", (route) => route.abort("connectionrefused"));
    await sendMessage(page, "hello");
    await expect(lastReply(page).locator("blockquote")).toHaveText("hello", { timeout: 15_000 });
    await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop");
    // The proxy itself still answers (only its stream was cut): the page keeps using it.
    await expect(page.getByRole("button", { name: "Proxy: this page's server" })).toBeVisible();
  });
});

test.describe("when the proxy fails", () => {
  test.use({ allowConsoleErrors: ["status of 502"] });

  test("its JSON error is shown as a proxy error", async ({ page }) => {
    await openPlayground(page);
    await page.route("**/api/stream", (route) =>
      route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({ error: "upstream is on fire" }),
      }),
    );
    await sendMessage(page, "hello");
    await expect(lastReply(page).getByRole("alert")).toContainText("Proxy error: upstream is on fire");
    await expect(lastReply(page).getByRole("button", { name: "Retry" })).toBeVisible();
  });
});
