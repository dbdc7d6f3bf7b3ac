import type { Page } from "@playwright/test";
import { lastRequestLines, storedCalls } from "./stored-calls.ts";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/** Start a run that waits for approval (save_note asks first), so it lasts until the card is answered. */
async function runWaitingForApproval(page: Page) {
  await sendMessage(page, "save a note: water the plants");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" }).last();
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  return card;
}

async function followUp(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Follow-up", exact: true }).click();
}

test("the follow-up queue set to all at once delivers every waiting follow-up in one turn, and the mode stays with the session", async ({
  page,
}) => {
  await openPlayground(page);
  const card = await runWaitingForApproval(page);
  await followUp(page, "first follow-up");

  const queued = page.getByRole("region", { name: "Queued messages" });
  const followUpMode = queued.getByRole("combobox", { name: "Follow-up:" });
  await expect(followUpMode).toHaveValue("one-at-a-time");
  await expect(queued.getByRole("combobox", { name: "Steering:" })).toHaveValue("one-at-a-time");
  await followUpMode.selectOption("all");
  await followUp(page, "second follow-up");
  await expect(queued).toContainText("second follow-up");
  await expectAccessible(page, "the queue panel with its modes");

  // The tool call, the reply after its result, then one turn for both follow-ups (one at a time: two).
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(lastReply(page).locator("blockquote")).toHaveText("second follow-up", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  const sent = await lastRequestLines(page, 3);
  expect(sent.slice(-2)).toEqual(["user: first follow-up", "user: second follow-up"]);
  expect(await storedCalls(page, 3)).toHaveLength(3);

  await page.reload();
  await runWaitingForApproval(page);
  await followUp(page, "third follow-up");
  await expect(
    page.getByRole("region", { name: "Queued messages" }).getByRole("combobox", { name: "Follow-up:" }),
  ).toHaveValue("all");
});
