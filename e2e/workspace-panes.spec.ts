import type { Page } from "@playwright/test";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test.use({ viewport: { width: 1440, height: 900 } });

const sessionsPane = (page: Page) => page.getByRole("region", { name: "Sessions" });
const chat = (page: Page) => page.getByRole("region", { name: "Conversation" });
const inspector = (page: Page) => page.getByRole("region", { name: "Inspector" });
const sessionsSeparator = (page: Page) => page.getByRole("separator", { name: "Resize the sessions list" });
const inspectorSeparator = (page: Page) => page.getByRole("separator", { name: "Resize the inspector" });

async function widthOf(locator: ReturnType<Page["getByRole"]>): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return box.width;
}

/** The inspector's share, in percent, of the width it and the chat take. */
async function inspectorShare(page: Page): Promise<number> {
  const [chatWidth, inspectorWidth] = [await widthOf(chat(page)), await widthOf(inspector(page))];
  return (inspectorWidth / (chatWidth + inspectorWidth)) * 100;
}

test("panes resized by keyboard keep their sizes across a reload", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await expect(inspector(page)).toBeVisible();
  await expect(sessionsSeparator(page)).toHaveAttribute("aria-valuenow", "240");
  await expect(inspectorSeparator(page)).toHaveAttribute("aria-valuenow", "60");
  expect(await widthOf(sessionsPane(page))).toBeCloseTo(240, 0);
  expect(await inspectorShare(page)).toBeCloseTo(60, 0);

  // The sessions list grows by three steps to the right; the inspector's separator moves left, so it grows.
  await sessionsSeparator(page).focus();
  for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowRight");
  await expect(sessionsSeparator(page)).toHaveAttribute("aria-valuenow", "288");
  await inspectorSeparator(page).focus();
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(inspectorSeparator(page)).toHaveAttribute("aria-valuenow", "70");
  await expect(inspectorSeparator(page)).toHaveAttribute("aria-valuetext", "70% of the width");
  expect(await widthOf(sessionsPane(page))).toBeCloseTo(288, 0);
  expect(await inspectorShare(page)).toBeCloseTo(70, 0);
  await expectAccessible(page, "panes resized");

  await page.reload();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(sessionsSeparator(page)).toHaveAttribute("aria-valuenow", "288");
  await expect(inspectorSeparator(page)).toHaveAttribute("aria-valuenow", "70");
  expect(await widthOf(sessionsPane(page))).toBeCloseTo(288, 0);
  expect(await inspectorShare(page)).toBeCloseTo(70, 0);

  // The bounds hold: End stops at the largest list, and Enter is the default again.
  await sessionsSeparator(page).focus();
  await page.keyboard.press("End");
  await expect(sessionsSeparator(page)).toHaveAttribute("aria-valuenow", "480");
  await page.keyboard.press("Enter");
  await expect(sessionsSeparator(page)).toHaveAttribute("aria-valuenow", "240");
});

test("a separator dragged with the mouse resizes its pane", async ({ page }) => {
  await openPlayground(page);
  const box = await sessionsSeparator(page).boundingBox();
  if (!box) throw new Error("no separator");
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, y, { steps: 4 });
  await page.mouse.up();
  await expect(sessionsSeparator(page)).toHaveAttribute("aria-valuenow", "300");
  expect(await widthOf(sessionsPane(page))).toBeCloseTo(300, 0);
});

test("the inspector maximised and restored", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const before = await widthOf(inspector(page));

  await page.getByRole("button", { name: "Maximise inspector" }).click();
  await expect(chat(page)).toBeHidden();
  await expect(sessionsPane(page)).toBeHidden();
  await expect(inspectorSeparator(page)).toHaveCount(0);
  expect(await widthOf(inspector(page))).toBeCloseTo(1440, 0);
  await expect(page.getByRole("button", { name: "Sessions" })).toHaveAttribute("aria-expanded", "false");
  await expectAccessible(page, "inspector maximised");

  await page.getByRole("button", { name: "Restore inspector" }).click();
  await expect(chat(page)).toBeVisible();
  await expect(sessionsPane(page)).toBeVisible();
  expect(await widthOf(inspector(page))).toBeCloseTo(before, 0);

  // Asking for the chat (its shortcut, /) gives the width back too, with the draft where it was.
  await page.getByRole("textbox", { name: "Message" }).fill("a draft");
  await page.getByRole("button", { name: "Maximise inspector" }).click();
  await expect(chat(page)).toBeHidden();
  await page.keyboard.press("/");
  await expect(chat(page)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("a draft");
});

test("chat lines keep to a readable width on a wide screen", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Sessions" }).click();
  await expect(sessionsPane(page)).toBeHidden();
  await sendMessage(page, "A long question ".repeat(40));
  await expect(lastReply(page)).toBeVisible({ timeout: 15_000 });
  // The pane is the whole width beside the sessions rail; what is read in it is a column of about 52rem
  // (832 px) in its middle.
  const pane = await chat(page).boundingBox();
  if (!pane) throw new Error("no chat");
  expect(pane.x + pane.width).toBeCloseTo(1440, 0);
  expect(pane.width).toBeGreaterThan(1340);
  const messages = page.getByRole("log", { name: "Messages" });
  expect(await widthOf(messages)).toBeLessThanOrEqual(832);
  expect(await widthOf(page.getByRole("textbox", { name: "Message" }))).toBeLessThanOrEqual(832);
  const log = await messages.boundingBox();
  expect(log && Math.abs(log.x + log.width / 2 - (pane.x + pane.width / 2))).toBeLessThan(12);
});

test("the usage line does not shift the layout when the first reply arrives", async ({ page }) => {
  // A laptop width, where a longer usage line used to wrap and grow the header.
  await page.setViewportSize({ width: 1024, height: 800 });
  await openPlayground(page);
  const header = page.getByRole("banner");
  const usage = page.getByLabel("Session usage");
  await expect(usage).toContainText("0 replies");
  // Measured once the header is whole: where calls go is shown just after the first paint.
  await expect(header.getByRole("button", { name: /^Proxy:/ })).toBeVisible();
  const before = await header.boundingBox();
  await sendMessage(page, "What is 12 * (3 + 4)?");
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await expect(usage).toContainText(/2 replies · .*cache write/);
  expect((await header.boundingBox())?.height).toBe(before?.height);
  // One primary action in the header.
  await expect(header.locator("button.primary")).toHaveText(["Inject"]);
  await expectAccessible(page, "header after the first reply");
});
