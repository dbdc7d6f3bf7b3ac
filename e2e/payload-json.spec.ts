import type { Page } from "@playwright/test";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/**
 * A call's provider payload as a JSON tree: it folds and unfolds by mouse and keyboard, a search steps
 * through matches in keys and values and opens what hides them, and the selected node's path is copied.
 * Raw still shows the exact text.
 */

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function openPayload(page: Page) {
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await page
    .getByRole("listbox", { name: "Recorded calls" })
    .getByRole("option", { name: /^Call #1 / })
    .click();
  const call = page.getByRole("article", { name: "Call 1" });
  await call.getByRole("tab", { name: "Provider payload" }).click();
  return call;
}

test("the payload folds, searches and copies a node's path", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name: /an approval trail/ }).click();
  // The example opens as a session of its own, with its own composer: typed before it shows (a loaded
  // machine), the message went to the composer it replaced, and Send stayed disabled.
  await expect(page.getByRole("region", { name: "Approval request: Run save_note" })).toBeVisible();
  await sendMessage(page, "where is the needle?");
  await expect(lastReply(page)).toContainText("I received", { timeout: 15_000 });
  const call = await openPayload(page);

  const tree = call.getByRole("tree", { name: "Payload" });
  const messages = tree.getByRole("treeitem", { name: /^messages: / });
  // Two levels open: the messages are listed, each folded to a summary.
  await expect(messages).toHaveAttribute("aria-expanded", "true");
  const first = tree.getByRole("treeitem", { name: /^0: / }).first();
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(first).toHaveAccessibleName(/^0: \{…\} \d+ keys$/);
  await expectAccessible(page, "payload tree");

  // Mouse: a click folds; keyboard: Right unfolds, Down moves, Right opens a message, Left closes it.
  await messages.click();
  await expect(messages).toHaveAttribute("aria-expanded", "false");
  await expect(messages).toHaveAccessibleName(/\[…\] \d+ items/);
  await expect(first).toHaveCount(0);
  await page.keyboard.press("ArrowRight");
  await expect(messages).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowDown");
  await expect(first).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect(tree.getByRole("treeitem", { name: /^role: "/ })).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(first).toHaveAttribute("aria-expanded", "false");

  await call.getByRole("button", { name: "Collapse all" }).click();
  await expect(tree.getByRole("treeitem")).toHaveCount(4);

  // Search: keys and values, counted, stepped through, and the match opened out of its folds.
  const search = call.getByRole("searchbox", { name: "Search Payload" });
  await search.fill("role");
  const count = call.getByRole("status");
  await expect(count).toHaveText(/^1 of \d+$/);
  const total = Number((await count.textContent())?.split(" of ")[1]);
  expect(total).toBeGreaterThan(3);
  await search.press("Enter");
  await expect(count).toHaveText(`2 of ${total}`);
  await search.press("Shift+Enter");
  await search.press("Shift+Enter");
  await expect(count).toHaveText(`${total} of ${total}`);
  await call.getByRole("button", { name: "Next match" }).click();
  await expect(count).toHaveText(`1 of ${total}`);

  await search.fill("NEEDLE");
  await expect(count).toHaveText("1 of 1");
  const match = tree.getByRole("treeitem", { name: /where is the needle\?/ });
  await expect(match).toBeInViewport();
  await expect(match).toHaveAttribute("aria-selected", "true");
  await expect(match.locator("mark")).toHaveText("needle");
  await expectAccessible(page, "payload search");

  // The selected node's path, as JavaScript reads it, copied.
  const path = call.locator(".path-text");
  await expect(path).toHaveText(/^messages\[\d+\]\.content(\[0\]\.text)?$/);
  await call.getByRole("button", { name: "Copy path" }).click();
  await expect(call.getByRole("button", { name: "Copy path: copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await path.textContent());

  await search.press("Escape");
  await expect(search).toHaveValue("");
  await expect(tree.locator("mark")).toHaveCount(0);
  // Escape cleared the search and closed nothing else.
  await expect(tree).toBeVisible();

  // Raw shows the exact text, as before.
  await call.getByRole("button", { name: "Raw", exact: true }).click();
  await expect(tree).toHaveCount(0);
  const raw = JSON.parse((await call.locator("pre").first().textContent()) ?? "null") as {
    messages: unknown[];
  };
  expect(JSON.stringify(raw.messages)).toContain("where is the needle?");
  await call.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(tree).toBeVisible();
});
