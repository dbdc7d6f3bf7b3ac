import type { Page } from "@playwright/test";
import { expect, factRow, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/** Press Tab until the named button has focus (a keyboard user's way there), at most `limit` times. */
async function tabTo(page: Page, name: string, limit = 20): Promise<void> {
  const target = page.getByRole("button", { name, exact: true });
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test("from first open to an approved tool call and an injected notification, without the mouse", async ({
  page,
}) => {
  await openPlayground(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await expect(composer).toBeFocused();

  await page.keyboard.type("Save a note: keyboard only");
  await page.keyboard.press("Enter");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });

  // Leave the text field, then "a" goes to the request waiting for a decision.
  await page.keyboard.press("Tab");
  await page.keyboard.press("a");
  await expect(card.getByRole("button", { name: "Approve" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(card).toHaveAttribute("data-status", "approved");
  await expect(composer).toBeFocused();
  await expect(lastReply(page)).toContainText("Saved note", { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // "n" opens the injection dialog; Tab and typing fill it; focus comes back where it was.
  await page.keyboard.press("Shift+Tab");
  const before = await page.evaluateHandle(() => document.activeElement);
  expect(await before.evaluate((element) => element?.tagName)).toBe("BUTTON");
  await page.keyboard.press("n");
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await expect(dialog).toBeVisible();
  const text = dialog.getByLabel("Text", { exact: true });
  for (
    let presses = 0;
    presses < 10 && !(await text.evaluate((element) => element === document.activeElement));
    presses++
  )
    await page.keyboard.press("Tab");
  await expect(text).toBeFocused();
  await page.keyboard.type("Deploy finished");
  await tabTo(page, "Inject: append now");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("complementary", { name: "Notification (info)" })).toContainText(
    "Deploy finished",
  );
  expect(await before.evaluate((element) => element === document.activeElement)).toBe(true);
});

test("the ? sheet lists the shortcuts; the facts list is one Tab stop moved with arrows and j/k", async ({
  page,
}) => {
  await openPlayground(page);
  await page.keyboard.type("first question");
  await page.keyboard.press("Enter");
  await expect(lastReply(page).locator("blockquote")).toHaveText("first question", { timeout: 15_000 });

  await page.keyboard.press("Tab");
  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toContainText("Stop the run");
  await expect(sheet.getByRole("row", { name: /Inject a message/ })).toContainText("n");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();

  // "f" opens the inspector on the facts list; the list is focused, not one of its rows.
  await page.keyboard.press("f");
  const facts = page.getByRole("listbox", { name: "Facts" });
  await expect(facts).toBeFocused();
  await page.keyboard.press("Home");
  await expect(facts).toHaveAttribute("aria-activedescendant", "fact-0");
  await page.keyboard.press("j");
  await page.keyboard.press("ArrowDown");
  await expect(facts).toHaveAttribute("aria-activedescendant", "fact-2");
  await page.keyboard.press("k");
  await expect(facts).toHaveAttribute("aria-activedescendant", "fact-1");
  // Moving does not select; Enter does, and shows the detail and the message in the chat.
  await expect(factRow(page, 2, "user")).toHaveAttribute("aria-selected", "false");
  await page.keyboard.press("Enter");
  await expect(factRow(page, 2, "user")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("region", { name: "Selected fact" })).toContainText("first question");
  await expect(page.getByRole("log", { name: "Messages" }).locator("[aria-current=true]")).toContainText(
    "first question",
  );
  // The whole conversation is in view: nothing newer to jump to.
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeHidden();

  // One Tab leaves the list: its rows are not Tab stops. The next stop is the model view's first control.
  await page.keyboard.press("Tab");
  await expect(
    page.getByRole("region", { name: "Model view" }).getByRole("button", { name: "convertToLlm" }),
  ).toBeFocused();
});

test("Escape stops a run, from the composer too, and the focus stays ready for the next message", async ({
  page,
}) => {
  await openPlayground(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  // Filled rather than typed key by key: only the length of the reply matters here (long enough to take
  // seconds at the offline model's pace for long replies, so Escape always lands before its end).
  await composer.fill(`quote ${"word ".repeat(3000)}`);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "aborted", { timeout: 15_000 });
  await expect(composer).toBeFocused();

  await composer.fill(`quote ${"again ".repeat(3000)}`);
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "aborted", { timeout: 15_000 });
  await expect(composer).toBeFocused();
});

test("the focus stays on the composer after a starter, Regenerate and Fork from here remove the button pressed", async ({
  page,
}) => {
  await openPlayground(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  const welcome = page.getByRole("region", { name: "See what the model sees" });
  // The starter's card goes once its message is sent.
  await welcome.getByRole("button", { name: /^What is 12 \* \(3 \+ 4\)\?/ }).focus();
  await page.keyboard.press("Enter");
  await expect(welcome).toBeHidden();
  await expect(composer).toBeFocused();
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // Facts: 1 system, 2 the question, 3 the tool call, 4 its result, 5 the answer. Regenerate replaces the
  // answer, and its button with it.
  const actions = (message: number) => page.getByRole("group", { name: `Actions for message ${message}` });
  await actions(5).getByRole("button", { name: "Regenerate" }).focus();
  await page.keyboard.press("Enter");
  await expect(composer).toBeFocused();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 15_000 });
  await expect(composer).toBeFocused();

  // Forking from the question makes it the last message: its Fork button goes.
  await actions(2).getByRole("button", { name: "Fork from here" }).focus();
  await page.keyboard.press("Enter");
  await expect(actions(2).getByRole("button", { name: "Fork from here" })).toBeHidden();
  await expect(composer).toBeFocused();
});

test("the inspector's Fork from here and Copy to new session leave the focus on the composer, in this session and in the copy", async ({
  page,
}) => {
  await openPlayground(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await sendMessage(page, "first turn");
  await expect(lastReply(page)).toContainText("first turn", { timeout: 15_000 });
  await sendMessage(page, "second turn");
  await expect(lastReply(page)).toContainText("second turn", { timeout: 15_000 });
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const facts = page.getByRole("region", { name: "Session facts" });
  const detail = page.getByRole("region", { name: "Selected fact" });

  // Fork from the first reply (fact 3): it becomes the last fact, and the button pressed goes.
  await factRow(facts, 3).click();
  await detail.getByRole("button", { name: "Fork from here" }).focus();
  await page.keyboard.press("Enter");
  await expect(detail.getByRole("button", { name: "Fork from here" })).toBeHidden();
  await expect(composer).toBeFocused();

  // Copy to a new session: the copy opens, and its composer has the focus.
  await factRow(facts, 2).click();
  await detail.getByRole("button", { name: "Copy to new session" }).focus();
  await page.keyboard.press("Enter");
  await expect(
    page
      .getByRole("region", { name: "Sessions" })
      .getByRole("button", { name: /^Fork of first turn at fact 2/ }),
  ).toHaveAttribute("aria-current", "true");
  await expect(composer).toBeFocused();
});
