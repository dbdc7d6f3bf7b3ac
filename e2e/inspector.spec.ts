import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  factRow,
  lastReply,
  modelRow,
  openPlayground,
  sendMessage,
  test,
  recordStreamRequests,
} from "./support.ts";

async function loadExample(page: Page, name: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name }).click();
}

async function openInspector(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: "Inspector", exact: true });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Session facts" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Model view" })).toBeVisible();
}

async function modelViewJson(page: Page): Promise<unknown[]> {
  const toggle = page.getByRole("region", { name: "Model view" }).getByRole("button", { name: "JSON" });
  await toggle.click();
  const text = await page.getByLabel("Model view as JSON").textContent();
  await toggle.click();
  return JSON.parse(text ?? "[]") as unknown[];
}

test("each fact shows its fate and its counterpart; a policy switch changes the model view and the next request", async ({
  page,
}) => {
  const requests = await recordStreamRequests(
    page,
    (text) => (JSON.parse(text) as { context: { messages: unknown[] } }).context,
  );
  await openPlayground(page);
  await loadExample(page, /notifications, hidden/);
  await openInspector(page);
  const facts = page.getByRole("region", { name: "Session facts" });
  const model = page.getByRole("region", { name: "Model view" });

  await expect(page.getByLabel("Summary", { exact: true })).toHaveText(
    "6 facts → 3 model messages: 3 hidden",
  );
  const notification = factRow(facts, 3, "notification", "hidden by policy");
  await expect(notification).toBeVisible();
  await expect(factRow(facts, 2, "user", /sent as-is|not yet sent.*/)).toBeVisible();

  // A fact that reaches the model is linked to its model message, and back.
  await factRow(facts, 2, "user").click();
  await expect(modelRow(model, 2, "user", 2)).toHaveAttribute("aria-selected", "true");
  await modelRow(model, 3, "user", 6).click();
  await expect(factRow(facts, 6, "user")).toHaveAttribute("aria-selected", "true");
  // A hidden fact has no counterpart, and says why.
  await notification.click();
  await expect(page.getByRole("region", { name: "Selected fact" })).toContainText(
    "Does not reach the model: hidden by policy.",
  );

  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("The last user message was", { timeout: 15_000 });
  expect(JSON.stringify(requests)).not.toContain("Upload finished");
  expect(JSON.stringify(requests)).not.toContain("Storage is 91% full");

  await page.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  await expect(page.getByLabel("Summary", { exact: true })).toHaveText(
    "8 facts → 7 model messages: 1 hidden, 2 converted",
  );
  await expect(factRow(facts, 3, "notification", "converted → user")).toBeVisible();
  await expect(modelRow(model, 3, "user", 3)).toBeVisible();

  await sendMessage(page, "and now?");
  await expect(lastReply(page).locator("blockquote")).toHaveText("and now?", { timeout: 15_000 });
  const last = JSON.stringify(requests.at(-1));
  expect(last).toContain("[Notification] Upload finished: report.pdf (2.1 MB)");
  expect(last).toContain("[Notification: warning] Storage is 91% full");
  expect(last).not.toContain("Indexing report.pdf");
});

test("the model view just before Send is exactly what the next request carries, minus the new prompt", async ({
  page,
}) => {
  const requests = await recordStreamRequests(
    page,
    (text) => (JSON.parse(text) as { context: { messages: unknown[] } }).context,
  );
  await openPlayground(page);
  await loadExample(page, /bash output/);
  await openInspector(page);
  await page.getByRole("combobox", { name: "Progress" }).selectOption("userText");

  for (const prompt of ["first question", "compute 6 * 7"]) {
    const before = await modelViewJson(page);
    await sendMessage(page, prompt);
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 15_000 });
    await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop");
    const sent = requests[requests.length - (prompt === "first question" ? 1 : 2)];
    expect(sent?.messages.slice(0, -1)).toEqual(before);
    expect(sent?.messages.at(-1)).toMatchObject({ role: "user", content: [{ type: "text", text: prompt }] });
  }
});

test("the facts list shows the reply while it streams, and the last request is compared with the model view", async ({
  page,
}) => {
  await openPlayground(page);
  await openInspector(page);
  await sendMessage(page, `quote ${"x ".repeat(200)}`);
  const facts = page.getByRole("region", { name: "Session facts" });
  await expect(factRow(facts, 3, "assistant", "streaming: not final")).toBeVisible();
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop", { timeout: 20_000 });
  await expect(factRow(facts, 3, "assistant", "sent as-is")).toBeVisible();

  await page.getByText("Last request", { exact: true }).click();
  await expect(page.getByLabel("Changes since the last request")).toHaveText(
    "2 unchanged · 1 added · 0 removed · 0 changed",
  );
});

test.describe("when the inspector's code cannot be fetched", () => {
  test.use({ allowConsoleErrors: ["Failed to load resource"] });

  test("the inspector pane says so, and the chat goes on", async ({ page }) => {
    await page.route(/\/InspectorPane-[^/]*\.js$/, (route) => route.abort());
    await openPlayground(page);
    await page.getByRole("button", { name: "Inspector", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText(
      /The inspector could not be loaded: .+\. Reload the page to try again\./,
    );
    await expectAccessible(page, "inspector that could not be loaded");
    await sendMessage(page, "still here?");
    await expect(lastReply(page)).toContainText("still here?");
  });
});

test("the inspector does not contradict itself after a compaction: the system prompt is sent as the compaction's copy, model message 1", async ({
  page,
}) => {
  await openPlayground(page);
  await loadExample(page, /compaction/);
  await openInspector(page);
  await factRow(page, 1, "system", "sent as the compaction's copy").click();
  const detail = page.getByRole("region", { name: "Selected fact" });
  await expect(detail).toContainText("the model reads that copy, model message 1");
  await expect(detail).not.toContainText("Does not reach the model");
  await expect(modelRow(page, 1, "system", 6)).toBeVisible();
  await detail.getByRole("button", { name: "Show model message 1" }).click();
  await expect(modelRow(page, 1, "system", 6)).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page, "a system prompt carried by a compaction, selected");
});
