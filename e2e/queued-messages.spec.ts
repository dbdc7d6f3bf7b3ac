import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test("steering and follow-up messages wait in the queue panel and are delivered in pi's order", async ({
  page,
}) => {
  await openPlayground(page);
  // The run pauses at the approval of save_note, so the queues can be filled while it is active.
  await sendMessage(page, "Save a note: queue demo");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("steer: keep it short");
  await page.getByRole("button", { name: "Steer", exact: true }).click();
  await box.fill("follow up: thanks");
  await page.getByRole("button", { name: "Follow-up", exact: true }).click();

  const queues = page.getByRole("region", { name: "Queued messages" });
  await expect(queues.getByRole("group", { name: /^Steering/ })).toContainText("steer: keep it short");
  await expect(queues.getByRole("group", { name: /^Follow-up/ })).toContainText("follow up: thanks");
  await card.getByRole("button", { name: "Approve" }).click();

  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await expect(queues).toBeHidden();
  // The tool result first; the steering message after the turn's tools; the follow-up only when the agent would stop.
  await expect(lastReply(page).locator("blockquote")).toHaveText("follow up: thanks");
  const replies = page.getByRole("article", { name: "Assistant reply", exact: true });
  await expect(replies.nth(1)).toContainText(
    "I received 5 messages: system, user, assistant, toolResult, user.",
  );
  await expect(replies.nth(2)).toContainText(
    "I received 7 messages: system, user, assistant, toolResult, user, assistant, user.",
  );
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText([
    "Save a note: queue demo",
    "steer: keep it short",
    "follow up: thanks",
  ]);
});

test("queued messages can be removed one by one or all at once, and are then never delivered", async ({
  page,
}) => {
  await openPlayground(page);
  // Slow enough that the queues can be edited by hand while the reply streams (about ten seconds).
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  await sendMessage(page, `quote this slowly: ${"word ".repeat(120)}`);
  await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toBeVisible();
  const box = page.getByRole("textbox", { name: "Message" });
  for (const text of ["first follow-up", "second follow-up"]) {
    await box.fill(text);
    await page.getByRole("button", { name: "Follow-up", exact: true }).click();
  }
  const queues = page.getByRole("region", { name: "Queued messages" });
  await queues.getByRole("button", { name: 'Remove "first follow-up" from followUp' }).click();
  await expect(queues.getByRole("group", { name: /^Follow-up/ }).getByRole("listitem")).toHaveText([
    /second follow-up/,
  ]);
  await queues.getByRole("button", { name: "Clear queues" }).click();
  await expect(queues).toBeHidden();

  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(1);
});
