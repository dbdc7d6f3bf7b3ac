import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  readStoredFacts,
  sendMessage,
  test,
} from "./support.ts";

async function injectNotification(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill(text);
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(dialog).toBeHidden();
}

async function openVariants(page: Page) {
  const tab = page.getByRole("tab", { name: "Variants" });
  await expect(async () => {
    if (!(await tab.isVisible())) await page.getByRole("button", { name: "Inspector", exact: true }).click();
    await expect(tab).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await tab.click();
  const view = page.getByRole("region", { name: "Variants" });
  await expect(view.getByRole("form", { name: "Prompt every variant" })).toBeVisible();
  return view;
}

const HOSTILE = '<img src=x onerror="window.__pwned = 1">';

test("three Mirror variants with their own system prompts and policies stream together, are compared turn by turn, survive a reload, and one becomes the session's branch", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("hello");
  await injectNotification(page, "Deploy 1234 finished");
  // A pace at which three replies visibly stream at the same time.
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  const baseFacts = await readStoredFacts(page);

  const view = await openVariants(page);
  const maximise = page.getByRole("button", { name: /^Maximise/ });
  if (await maximise.isVisible()) await maximise.click();
  await expect(view.getByRole("radio", { name: "3 variants" })).toBeChecked();
  const columnB = view.getByRole("group", { name: "Variant B" });
  const columnC = view.getByRole("group", { name: "Variant C" });
  await columnB.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  await columnC.getByRole("textbox", { name: "System prompt" }).fill("Answer like a pirate.");

  await view.getByRole("textbox", { name: "Prompt for every variant" }).fill(`what changed? ${HOSTILE}`);
  await view.getByRole("button", { name: "Send to every variant" }).click();
  const turn = view.getByRole("region", { name: "Turn 1" });
  // The three stream at once.
  await expect(turn.getByText(/· streaming…$/)).toHaveCount(3);
  await expect(view.getByRole("button", { name: "Stop every variant" })).toBeVisible();
  await expect(turn.getByText(/^Variant [ABC] · done$/)).toHaveCount(3, { timeout: 60_000 });

  const outputs = ["A", "B", "C"].map((label) => turn.getByLabel(`Turn 1, output of variant ${label}`));
  const [outputA, outputB, outputC] = outputs;
  if (!outputA || !outputB || !outputC) throw new Error("three outputs");
  // Mirror tells what reached it: B's model also read the notification, as user text.
  const textA = (await outputA.textContent()) ?? "";
  const textB = (await outputB.textContent()) ?? "";
  expect(textA).toContain("I received");
  expect(textB).not.toBe(textA);
  // Model output is text, never markup: the prompt's img tag is shown, not made.
  await expect(outputA).toContainText(HOSTILE);
  await expect(view.locator("img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(view.getByLabel("Variant C system prompt")).toHaveText("Answer like a pirate.");

  // Per-turn figures for every variant: tokens, cost, latency and payload size.
  const figures = turn.getByRole("table", { name: "Turn 1 figures" });
  // Mirror reports its input as written to a cache, and its cost as none.
  for (const row of ["Output tokens", "Cache write", "Cost", "First token", "Duration", "Payload"]) {
    const cells = figures.getByRole("row", { name: new RegExp(`^${row}`) }).getByRole("cell");
    await expect(cells).toHaveCount(3);
    for (const cell of await cells.all()) await expect(cell).not.toHaveText("–");
  }
  // B's payload carries the notification: it is the larger one, and A's the smaller.
  const payloadRow = figures.getByRole("row", { name: /^Payload/ });
  await expect(payloadRow.getByRole("cell").nth(1)).not.toContainText("lowest");
  await expectAccessible(page, "three variants compared");
  // On a phone the figures of three variants keep within their turn (the "lowest" marks go under the values).
  await page.setViewportSize({ width: 390, height: 844 });
  // A phone shows the chat and the inspector as tabs.
  await page.getByRole("tab", { name: "Inspector" }).click();
  await figures.scrollIntoViewIfNeeded();
  const turnBox = await turn.boundingBox();
  const figuresBox = await figures.boundingBox();
  if (!turnBox || !figuresBox) throw new Error("the turn and its figures are shown on a phone");
  expect(figuresBox.x + figuresBox.width).toBeLessThanOrEqual(turnBox.x + turnBox.width);
  await page.setViewportSize({ width: 1280, height: 720 });

  // Reload: the comparison is read back from the session's calls.
  await page.reload();
  const again = await openVariants(page);
  const stored = again.getByRole("article", { name: "Comparison of 3 variants" });
  await expect(stored).toHaveCount(1);
  const storedTurn = stored.getByRole("region", { name: "Turn 1" });
  await expect(storedTurn.getByLabel("Turn 1, output of variant B")).toHaveText(textB);
  await expect(storedTurn.getByRole("table", { name: "Turn 1 figures" }).getByRole("cell")).toHaveCount(24);

  // Use variant B: a new branch whose facts are the base and B's turn, the first branch kept.
  await stored.getByRole("button", { name: "Use variant B" }).click();
  await expect(again.getByRole("status")).toContainText("Variant B is the session's branch now");
  await expect(lastReply(page)).toHaveText(
    new RegExp(textB.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  );
  const facts = (await readStoredFacts(page)) as { role: string; content?: unknown }[];
  expect(facts.slice(0, baseFacts.length)).toEqual(baseFacts);
  expect(facts.slice(baseFacts.length).map((fact) => fact.role)).toEqual(["user", "assistant"]);
  expect(JSON.stringify(facts.at(-2))).toContain("what changed?");
  expect(JSON.stringify(facts.at(-1))).toContain(JSON.stringify(textB.slice(0, 40)).slice(1, -1));
  // B's policy is the session's from now on.
  await page.getByRole("tab", { name: "Facts and model view" }).click();
  await expect(page.getByRole("combobox", { name: "Notifications" })).toHaveValue("userText");
  await expectAccessible(page, "a variant used as the session's branch");
});
