import { expect, openPlayground, test } from "./support.ts";

test("menus work from the keyboard: open, move with arrows, choose, and focus comes back", async ({
  page,
}) => {
  await openPlayground(page);
  const trigger = page.getByRole("button", { name: "Load example" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  const items = page.getByRole("menu", { name: "Load example" }).getByRole("menuitem");
  await expect(items.first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expect(items.last()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu", { name: "Load example" })).toBeHidden();
  await expect(trigger).toBeFocused();

  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("region", { name: "Sessions" }).getByRole("button", { name: /^Example: bash output/ }),
  ).toHaveAttribute("aria-current", "true");
  await expect(trigger).toBeFocused();
});

test("renaming a session from its menu puts the focus in the title field", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Actions for New session" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const field = page.getByRole("textbox", { name: "New title" });
  await expect(field).toBeFocused();
  await page.keyboard.type("Keyboard only");
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("region", { name: "Sessions" }).getByRole("button", { name: /^Keyboard only/ }),
  ).toBeVisible();
});

test("the model picker is a combobox: type, move with arrows, Enter chooses and returns focus", async ({
  page,
}) => {
  await openPlayground(page);
  const trigger = page.getByRole("button", { name: /^Model:/ });
  await trigger.click();
  const search = page.getByRole("combobox", { name: "Search models" });
  await expect(search).toBeFocused();
  await search.fill("mirror");
  const options = page.getByRole("listbox", { name: "Models" }).getByRole("option");
  await expect(search).toHaveAttribute(
    "aria-activedescendant",
    (await options.nth(0).getAttribute("id")) ?? "",
  );
  await page.keyboard.press("ArrowDown");
  const second = options.nth(1);
  await expect(search).toHaveAttribute("aria-activedescendant", (await second.getAttribute("id")) ?? "");
  const secondName = (await second.locator(".name").textContent()) ?? "";
  expect(secondName).not.toBe("");
  await page.keyboard.press("Enter");
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveText(`Model: ${secondName}`);
});

test("the injection dialog's tabs follow the arrow keys", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  const form = dialog.getByRole("tab", { name: "Form" });
  await form.focus();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("tab", { name: "JSON" })).toBeFocused();
  await expect(dialog.getByRole("tab", { name: "JSON" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByRole("tabpanel", { name: "JSON" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});
