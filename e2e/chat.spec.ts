import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test("a reply from the offline mirror model streams in and names what it received", async ({ page }) => {
  await openPlayground(page);
  // Paced (about three seconds for this reply), so the streaming state is there to be read on a busy machine.
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  await sendMessage(page, "hello");

  // Read in the page, in the moment it is seen streaming: on a busy machine the reply may end between a
  // check that it streams and a second look at its text.
  const early = await page
    .waitForFunction(
      () => document.querySelector('article[aria-label="Assistant reply (streaming)"]')?.textContent ?? false,
    )
    .then((handle) => handle.jsonValue() as Promise<string>);
  await expect(lastReply(page)).toContainText("The last user message was", { timeout: 15_000 });
  const final = (await lastReply(page).textContent()) ?? "";
  // The text was seen growing: what was visible while streaming is shorter than the final answer.
  expect(early.length).toBeLessThan(final.length);
  await expect(lastReply(page)).toContainText("I received 2 messages: system, user.");
  await expect(lastReply(page).locator("blockquote")).toHaveText("hello");
});

test("Enter sends, Shift+Enter adds a line", async ({ page }) => {
  await openPlayground(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("first line");
  await box.press("Shift+Enter");
  await box.pressSequentially("second line");
  await expect(box).toHaveValue("first line\nsecond line");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText("first line\nsecond line");
  await expect(lastReply(page).locator("blockquote")).toHaveText("first line\nsecond line", {
    timeout: 15_000,
  });
});

test("the system prompt can be read and edited, and the model receives the new one", async ({ page }) => {
  await openPlayground(page);
  await page.getByText("System prompt", { exact: true }).click();
  await expect(page.getByText(/You are a helpful assistant inside pi playground/)).toBeVisible();
  await page.getByRole("button", { name: "Edit system prompt" }).click();
  await page.getByRole("textbox", { name: "System prompt text" }).fill("You are a pirate.");
  await page.getByRole("button", { name: "Save system prompt" }).click();
  await expect(page.getByText("You are a pirate.", { exact: true })).toBeVisible();

  await sendMessage(page, "show context");
  await expect(lastReply(page)).toContainText("1. system", { timeout: 15_000 });
  await expect(lastReply(page)).toContainText("You are a pirate.");
});

test("the conversation follows new tokens until the reader scrolls up, then offers to jump back", async ({
  page,
}) => {
  await openPlayground(page);
  for (const text of ["one", "two", "three"]) {
    await sendMessage(page, `${text} ${"padding ".repeat(60)}`);
    await expect(lastReply(page).locator("blockquote")).toContainText(text, { timeout: 20_000 });
    await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop");
  }
  await sendMessage(page, `four ${"more padding ".repeat(80)}`);
  const streaming = page.getByRole("article", { name: "Assistant reply (streaming)" });
  await expect(streaming).toBeInViewport();

  const conversation = page.getByRole("region", { name: "Conversation" });
  await conversation.getByRole("log", { name: "Messages" }).hover();
  await page.mouse.wheel(0, -5_000);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  // The reply ends while the reader is away (until then the last finished reply is the one before).
  await expect(streaming).toHaveCount(0, { timeout: 30_000 });
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop");
  await expect(conversation.getByRole("article", { name: "Your message" }).first()).toBeInViewport();
  await expect(lastReply(page)).not.toBeInViewport();

  await page.getByRole("button", { name: "Jump to latest" }).click();
  await expect(lastReply(page)).toBeInViewport();
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeHidden();

  // The button takes no room: its coming and going never moves the messages under a reader's pointer
  // (a click on a card's button landed on the text above it when the button left as the click began).
  const scrollHeight = () =>
    conversation.getByRole("log", { name: "Messages" }).evaluate((log) => log.parentElement?.scrollHeight);
  const heightAtTheEnd = await scrollHeight();
  await page.mouse.wheel(0, -80);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  expect(await scrollHeight()).toBe(heightAtTheEnd);
});
