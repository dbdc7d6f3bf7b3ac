import type { Locator, Page } from "@playwright/test";
import { playgroundSessionFile } from "./fixtures/session-files.ts";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test.use({ viewport: { width: 1440, height: 900 } });

const sessionsPane = (page: Page) => page.getByRole("region", { name: "Sessions" });
const sessionList = (page: Page) => sessionsPane(page).getByRole("list", { name: "Session list" });
const rail = (page: Page) => page.getByRole("navigation", { name: "Sessions rail" });
const storagePanel = (page: Page) => page.getByRole("dialog", { name: "Storage" });

/** Leave the message box, so single-key shortcuts apply. */
async function leaveTextFields(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Press Tab until `target` has the focus; fails when it is not reached in `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let press = 0; press < limit; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test("the sessions pane folds to a rail by keyboard, stays folded across a reload, and its buttons work", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "first session");
  await expect(lastReply(page)).toBeVisible({ timeout: 15_000 });
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(1);

  // The sessions shortcut folds the pane to the rail.
  await leaveTextFields(page);
  await page.keyboard.press("s");
  await expect(sessionsPane(page)).toBeHidden();
  await expect(rail(page)).toBeVisible();
  const box = await rail(page).boundingBox();
  expect(box?.width).toBeCloseTo(48, 0);
  await expect(page.getByRole("button", { name: "Sessions", exact: true })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
  // The chat takes the room the pane gave up.
  expect((await page.getByRole("region", { name: "Conversation" }).boundingBox())?.width).toBeCloseTo(
    1440 - 48,
    0,
  );
  await expectAccessible(page, "sessions folded to the rail");

  await page.reload();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(rail(page)).toBeVisible();
  await expect(sessionsPane(page)).toBeHidden();

  // Every button of the rail is reached with Tab, each with its name (its tooltip says it too).
  const show = rail(page).getByRole("button", { name: "Show sessions" });
  const create = rail(page).getByRole("button", { name: "New session" });
  const importFile = rail(page).getByRole("button", { name: "Import…" });
  await page.getByRole("button", { name: "Sessions", exact: true }).focus();
  await tabTo(page, show);
  await page.keyboard.press("Tab");
  await expect(create).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(importFile).toBeFocused();
  await expect(create).toHaveAttribute("title", "New session");

  // A new session from the rail: the chat is empty and ready for a message.
  await create.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();

  // The shortcut unfolds the pane again, with both sessions in it.
  await leaveTextFields(page);
  await page.keyboard.press("s");
  await expect(rail(page)).toHaveCount(0);
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);
  await page.reload();
  await expect(sessionsPane(page)).toBeVisible();
  await expect(rail(page)).toHaveCount(0);
});

test("Import from the rail unfolds the pane and opens its file chooser", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Sessions", exact: true }).click();
  const chooser = page.waitForEvent("filechooser");
  await rail(page).getByRole("button", { name: "Import…" }).click();
  const fileChooser = await chooser;
  await expect(sessionsPane(page)).toBeVisible();
  await fileChooser.setFiles({
    name: "from-the-rail.jsonl",
    mimeType: "application/json",
    buffer: Buffer.from(
      playgroundSessionFile("From the rail", [
        { role: "user", content: [{ type: "text", text: "Imported question" }], timestamp: 2 },
      ]),
    ),
  });
  await expect(sessionsPane(page).getByRole("button", { name: /^From the rail/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["Imported question"]);
});

test.describe("when storage is nearly full", () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const quota = 2 * 1024 ** 3;
      StorageManager.prototype.estimate = () => Promise.resolve({ usage: quota * 0.85, quota });
    });
  });

  test("the rail marks the storage warning, and the marker opens the Storage panel", async ({ page }) => {
    await openPlayground(page);
    await page.getByRole("button", { name: "Sessions", exact: true }).click();
    const marker = rail(page).getByRole("button", { name: "Storage: Storage 85% full" });
    await expect(marker).toBeVisible();
    await expectAccessible(page, "rail with a storage warning");
    await marker.click();
    await expect(storagePanel(page)).toContainText("1.7 GB of 2 GB (85%)");
    await expectAccessible(page, "storage panel opened from the rail");
    await page.keyboard.press("Escape");
    await expect(storagePanel(page)).toHaveCount(0);
    await expect(marker).toBeFocused();
  });
});
