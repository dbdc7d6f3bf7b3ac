import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test("a reply from the offline mirror model streams in and names what it received", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "hello");

  const streaming = page.getByRole("article", { name: "Assistant reply (streaming)" });
  await expect(streaming).toBeVisible();
  const early = (await streaming.textContent()) ?? "";
  await expect(lastReply(page)).toContainText("The last user message was", { timeout: 15_000 });
  const final = (await lastReply(page).textContent()) ?? "";
  // The text was seen growing: what was visible while streaming is a strict prefix of the final answer.
  expect(early.length).toBeLessThan(final.length);
  await expect(lastReply(page)).toContainText("I received 2 messages: system, user.");
  await expect(lastReply(page).locator("blockquote")).toHaveText("hello");
});
