import { expect, expectAccessible, factRow, openPlayground, sendMessage, test } from "./support.ts";

test("axe-core finds nothing serious in a chat with a tool call, a pending approval and the inspector open", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "What is 12 * (3 + 4)?");
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await sendMessage(page, "Save a note: axe says yes");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await expectAccessible(page, "chat with a tool call and a pending approval");

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await factRow(page, 4, "toolResult").click();
  await expect(page.getByRole("region", { name: "Selected fact" })).toContainText("Fact 4");
  await expectAccessible(page, "inspector open with a fact selected");

  // Every example session, with its custom message types, under both policies.
  for (const example of [/bash output/, /compaction/, /branch/, /notifications sent/, /display: false/]) {
    await page.getByRole("button", { name: "Load example" }).click();
    await page.getByRole("menuitem", { name: example }).click();
    await factRow(page, 2).click();
    await expectAccessible(page, `example ${example.source}`);
  }

  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await expectAccessible(page, "keyboard shortcuts");
});
