import { expect, lastReply, openPlayground, readStoredSession, sendMessage, test } from "./support.ts";

test("a reload restores the exact transcript, stored one record per message", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("The last user message was", { timeout: 15_000 });
  await sendMessage(page, "compute 2 + 2");
  await expect(lastReply(page)).toContainText("returned: 2 + 2 = 4", { timeout: 15_000 });

  const conversation = page.getByRole("region", { name: "Conversation" });
  const before = await conversation.locator("[data-fact-index]").allTextContents();
  const stored = await readStoredSession(page);
  // system, user, assistant, user, assistant (tool call), toolResult, assistant
  expect(stored.roles).toEqual([
    "system",
    "user",
    "assistant",
    "user",
    "assistant",
    "toolResult",
    "assistant",
  ]);
  expect(stored.messageRecords).toBe(7);

  await page.reload();
  await expect(lastReply(page)).toContainText("returned: 2 + 2 = 4");
  // The messages' actions load just after the first paint: the same conversation once they are there.
  await expect.poll(() => conversation.locator("[data-fact-index]").allTextContents()).toEqual(before);
});

test("a reload during a run keeps what was final and shows the streaming reply as interrupted", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, `quote: ${"alpha beta gamma ".repeat(30)}`);
  await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toContainText(
    "The last user message",
    {
      timeout: 15_000,
    },
  );
  // The streaming reply is saved as it grows: reload once a copy of it is stored.
  await expect
    .poll(async () => (await readStoredSession(page)).inflightText, { timeout: 10_000 })
    .toContain("I received 2 messages");
  await page.reload();

  const interrupted = lastReply(page);
  await expect(interrupted).toHaveAttribute("data-stop-reason", "aborted");
  await expect(interrupted).toContainText("Interrupted: the page was closed or reloaded");
  await expect(interrupted).toContainText("I received 2 messages");
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("alpha beta gamma");
  const stored = await readStoredSession(page);
  expect(stored.roles).toEqual(["system", "user", "assistant"]);
  expect(stored.inflight).toBe(0);
});
