import type { Locator, Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNoHorizontalOverflow,
  factRow,
  lastReply,
  openPlayground,
  sendMessage,
  test,
} from "./support.ts";

test.use({ viewport: { width: 390, height: 844 } });

/** The element lies entirely inside the viewport. */
async function expectInsideViewport(page: Page, element: Locator, what: string): Promise<void> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize();
  expect(box, what).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(viewport.height);
}

test("on a phone: chat, open the inspector, inject a notification, approve a tool call, never wider than the screen", async ({
  page,
}) => {
  await openPlayground(page);
  // The sessions are a drawer, closed at first; chat and inspector are tabs.
  await expect(page.getByRole("region", { name: "Sessions" })).toBeHidden();
  await expect(page.getByRole("tab", { name: "Chat" })).toHaveAttribute("aria-selected", "true");
  await expectNoHorizontalOverflow(page, "first open");

  await sendMessage(page, "hello from a phone");
  await expect(lastReply(page).locator("blockquote")).toHaveText("hello from a phone", { timeout: 15_000 });
  await expectNoHorizontalOverflow(page, "chat");

  await page.getByRole("tab", { name: "Inspector" }).click();
  await expect(page.getByRole("region", { name: "Session facts" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Conversation" })).toBeHidden();
  await factRow(page, 2, "user").click();
  // With a fact selected, both lists keep a usable height.
  for (const list of ["Facts", "Model messages"]) {
    const box = await page.getByRole("listbox", { name: list }).boundingBox();
    expect(box?.height ?? 0, `${list} height`).toBeGreaterThan(150);
  }
  await expect(page.getByRole("region", { name: "Selected fact" })).toContainText("Fact 2");
  await expectNoHorizontalOverflow(page, "inspector with a fact selected");
  await expectAccessible(page, "phone layout with the inspector");

  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await expectInsideViewport(page, dialog, "inject dialog");
  await dialog.getByLabel("Text", { exact: true }).fill("Battery at 15%");
  await expectNoHorizontalOverflow(page, "inject dialog");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(dialog).toBeHidden();
  await expect(factRow(page, 4, "notification", "hidden by policy")).toBeVisible();

  await page.getByRole("tab", { name: "Chat" }).click();
  await expect(page.getByRole("complementary", { name: "Notification (info)" })).toContainText(
    "Battery at 15%",
  );
  await sendMessage(page, "Save a note: charge the phone");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await expectNoHorizontalOverflow(page, "pending approval");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card).toHaveAttribute("data-status", "approved");
  await expect(lastReply(page)).toContainText("Saved note", { timeout: 15_000 });
  await expectNoHorizontalOverflow(page, "approved tool call");
});

test("on a phone the sessions drawer has a backdrop, closes with Escape, and gives focus back", async ({
  page,
}) => {
  await openPlayground(page);
  const toggle = page.getByRole("button", { name: "Sessions" });
  await toggle.click();
  const drawer = page.getByRole("dialog", { name: "Sessions" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("button", { name: "Close" })).toBeFocused();
  await expectNoHorizontalOverflow(page, "drawer open");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(toggle).toBeFocused();

  // A press on the backdrop closes it too; choosing an example closes it and opens the example.
  await toggle.click();
  await page.mouse.click(380, 400);
  await expect(drawer).toBeHidden();
});

test("Phone: Load example, Settings and ? are in the header, not hidden in the sessions drawer", async ({
  page,
}) => {
  await openPlayground(page);
  await expect(page.getByRole("dialog", { name: "Sessions" })).toBeHidden();
  const header = page.getByRole("banner");
  for (const name of ["Load example", "Settings", "Keyboard shortcuts"]) {
    await expectInsideViewport(page, header.getByRole("button", { name, exact: true }), name);
  }
  // The first row holds them all, beside the sessions button.
  const rowTop = (await header.getByRole("button", { name: "Sessions" }).boundingBox())?.y ?? -1;
  for (const name of ["Inject", "Load example", "Settings", "Keyboard shortcuts"]) {
    const box = await header.getByRole("button", { name, exact: true }).boundingBox();
    expect(Math.abs((box?.y ?? 1e9) - rowTop), `${name} in the first row`).toBeLessThan(8);
  }
  await header.getByRole("button", { name: "Load example", exact: true }).click();
  await page.getByRole("menuitem", { name: /approval trail/ }).click();
  await expect(page.getByRole("region", { name: "Approval request: Deploy to production" })).toBeVisible();
  await expectNoHorizontalOverflow(page, "example loaded");
  await header.getByRole("button", { name: "Settings", exact: true }).click();
  await expect(page.getByRole("menu", { name: "Settings" })).toBeVisible();
  await expectAccessible(page, "phone header with the Settings menu open");
});

test("Phone: header, tabs and composer take at most a third of the height, not about 45%", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "a first turn, so the usage line shows");
  await expect(lastReply(page)).toContainText("I received", { timeout: 15_000 });
  const height = page.viewportSize()?.height ?? 0;
  const header = (await page.getByRole("banner").boundingBox())?.height ?? height;
  const composer = (await page.getByRole("form", { name: "Composer" }).boundingBox())?.height ?? height;
  expect((header + composer) / height).toBeLessThanOrEqual(0.35);
  await expectNoHorizontalOverflow(page, "compact header and composer");
});

test("Phone: a selected fact's detail is scrolled into view, and a call's layer tabs keep to one row", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "compute 12 * (3 + 4)");
  await expect(lastReply(page)).toContainText("returned: 12 * (3 + 4) = 84", { timeout: 20_000 });
  await page.getByRole("tab", { name: "Inspector" }).click();
  await factRow(page, 3, "assistant").click();
  const detail = page.getByRole("region", { name: "Selected fact" });
  await expect(detail.getByRole("heading", { name: /^Fact 3/ })).toBeInViewport();

  await page.getByRole("tab", { name: /^Calls/ }).click();
  await page.getByRole("region", { name: "Calls" }).getByText("#1", { exact: true }).click();
  const layers = page.getByRole("tablist", { name: "Layers of this call" });
  const tabs = await layers.getByRole("tab").all();
  expect(tabs.length).toBeGreaterThan(3);
  const tops = new Set<number>();
  for (const tab of tabs) tops.add(Math.round((await tab.boundingBox())?.y ?? -1));
  expect([...tops]).toHaveLength(1);
  await expectNoHorizontalOverflow(page, "call layers in one scrolling row");
  await expectAccessible(page, "a call's layers on a phone");
});

test("on a phone every dialog and popover fits the screen", async ({ page }) => {
  await openPlayground(page);

  await page.getByRole("button", { name: /^Model:/ }).click();
  await expectInsideViewport(page, page.getByRole("listbox", { name: "Models" }), "model picker");
  await expectNoHorizontalOverflow(page, "model picker");
  await page.keyboard.press("Escape");

  await page.getByText("System prompt", { exact: true }).click();
  await page.getByRole("button", { name: "Edit system prompt" }).click();
  await expectInsideViewport(
    page,
    page.getByRole("textbox", { name: "System prompt text" }),
    "prompt editor",
  );
  await expectNoHorizontalOverflow(page, "system prompt editor");
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const inject = page.getByRole("dialog", { name: "Inject message" });
  for (const kind of ["Approval request", "Bash execution", "Custom (extension message)"]) {
    await inject.getByRole("combobox", { name: "Type" }).selectOption({ label: kind });
    await expectInsideViewport(page, inject, `inject dialog (${kind})`);
    await expectNoHorizontalOverflow(page, `inject dialog (${kind})`);
  }
  await inject.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "Sessions" }).click();
  await page
    .getByRole("dialog", { name: "Sessions" })
    .getByLabel("Import a session file")
    .setInputFiles({
      name: "broken.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(
        [
          "{not json",
          JSON.stringify({ type: "message", message: { role: "user", content: "hi", timestamp: 1 } }),
        ].join("\n"),
      ),
    });
  const importDialog = page.getByRole("dialog", { name: "Import broken.jsonl?" });
  await expect(importDialog).toBeVisible();
  await expectInsideViewport(page, importDialog, "import dialog");
  await expectNoHorizontalOverflow(page, "import dialog");

  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expectInsideViewport(page, sheet, "shortcuts sheet");
  await expectNoHorizontalOverflow(page, "shortcuts sheet");
});
