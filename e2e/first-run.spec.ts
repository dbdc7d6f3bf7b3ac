import type { Page } from "@playwright/test";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

const sessionList = (page: Page) =>
  page.getByRole("region", { name: "Sessions" }).getByRole("list", { name: "Session list" });
const welcome = (page: Page) => page.getByRole("region", { name: "See what the model sees" });
const starter = (page: Page, name: RegExp) => welcome(page).getByRole("button", { name });

test("first open explains the playground and Mirror, offers starters, and the composer has focus", async ({
  page,
}) => {
  await openPlayground(page);
  await expect(welcome(page)).toContainText("session facts");
  await expect(welcome(page)).toContainText("Mirror");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  // The session's only fact is the system prompt, which the chat does not show as a message.
  await expect(sessionList(page).getByRole("listitem")).toHaveText([/New session\s*No messages yet/]);
  await expectAccessible(page, "first open");

  await starter(page, /^What is 12 \* \(3 \+ 4\)\?/).click();
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await expect(welcome(page)).toBeHidden();
  await expect(sessionList(page).getByRole("listitem")).toContainText([/4 messages/]);
});

test("each starter runs with one click: the time, a note that waits for approval, the context, a notification", async ({
  page,
}) => {
  await openPlayground(page);
  await starter(page, /^What time is it\?/).click();
  await expect(page.getByRole("region", { name: "Tool call current_time" })).toBeVisible({ timeout: 15_000 });
  await expect(lastReply(page)).toContainText("current_time returned:", { timeout: 15_000 });

  await page.getByRole("button", { name: "New session", exact: true }).click();
  await starter(page, /^Save a note: water the plants/).click();
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(lastReply(page)).toContainText("Saved note", { timeout: 15_000 });

  await page.getByRole("button", { name: "New session", exact: true }).click();
  await starter(page, /^Show context/).click();
  await expect(lastReply(page)).toContainText("1. system", { timeout: 15_000 });

  await page.getByRole("button", { name: "New session", exact: true }).click();
  await starter(page, /^Inject a notification/).click();
  const notification = page.getByRole("complementary", { name: "Notification (info)" });
  await expect(notification).toContainText("Deploy finished");
  await expect(
    page.getByRole("log", { name: "Messages" }).getByText("hidden from the model", { exact: true }),
  ).toHaveCount(1);
  // Appending a notification makes no model call.
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(0);
});

test("New session reuses an empty session instead of piling them up", async ({ page }) => {
  await openPlayground(page);
  const newSession = page.getByRole("button", { name: "New session", exact: true });
  await newSession.click();
  await newSession.click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(1);

  await sendMessage(page, "first conversation");
  await expect(lastReply(page).locator("blockquote")).toHaveText("first conversation", { timeout: 15_000 });
  await newSession.click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await newSession.click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);

  // From a used session, New session goes to the empty one that is already there.
  await sessionList(page)
    .getByRole("button", { name: /^first conversation/ })
    .click();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["first conversation"]);
  await newSession.click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);
  await expect(sessionList(page).getByRole("button", { name: /^New session/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
});

test("example sessions label their prepared replies, never as Mirror's", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name: /approval trail/ }).click();
  const replies = page.getByRole("article", { name: "Assistant reply", exact: true });
  await expect(replies).toHaveCount(2);
  for (const reply of await replies.all()) {
    await expect(reply).toContainText("Prepared reply (example): no model wrote it");
    await expect(reply).not.toContainText("mirror");
  }
});
