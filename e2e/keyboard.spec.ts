import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

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

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("tabbing along the header's row of chips, which scrolls sideways, brings the focused chip and its ring into view", async ({
    page,
  }) => {
    await openPlayground(page);
    const proxy = page.getByRole("button", { name: /^Proxy:/ });
    await expect(proxy).toHaveText("Proxy: this page's server");
    // The chip with its focus ring (the outline drawn around it, past its border) inside the row's box.
    const inView = () =>
      proxy.evaluate((chip) => {
        const row = chip.parentElement?.getBoundingClientRect();
        const box = chip.getBoundingClientRect();
        const style = getComputedStyle(chip);
        const ring =
          document.activeElement === chip
            ? parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset)
            : 0;
        if (!row) return false;
        return (
          box.left - ring >= row.left &&
          box.right + ring <= row.right &&
          box.top - ring >= row.top &&
          box.bottom + ring <= row.bottom
        );
      });
    // The row is narrower than its chips: the proxy's starts out of view.
    expect(await inView(), "the proxy's chip before any Tab").toBe(false);

    await page.getByRole("button", { name: /^Model:/ }).focus();
    for (
      let presses = 0;
      presses < 10 && !(await proxy.evaluate((chip) => chip === document.activeElement));
      presses++
    )
      await page.keyboard.press("Tab");
    await expect(proxy).toBeFocused();
    await expect
      .poll(inView, { message: "the focused proxy chip and its ring lie inside the row's visible box" })
      .toBe(true);
    await expectAccessible(page, "a phone's header row scrolled to its focused proxy chip");
  });
});

test("a message's context-edit menu from the keyboard: its row of actions stays shown, and its first item's ring is whole", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "keep me in view");
  await expect(lastReply(page).locator("blockquote")).toHaveText("keep me in view", { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  const actions = page.getByRole("group", { name: "Actions for message 2" });
  const trigger = actions.getByRole("button", { name: "Context edits for message 2" });
  await trigger.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "Context edits for message 2" });
  const first = menu.getByRole("menuitem").first();
  await expect(first).toBeFocused();
  // The pointer is elsewhere: the row shows because the focus is in its menu.
  await page.mouse.move(0, 0);
  await expect
    .poll(() => actions.evaluate((row) => Number(getComputedStyle(row.parentElement ?? row).opacity)))
    .toBe(1);
  const ringInside = await first.evaluate((item) => {
    const menuBox = item.closest('[role="menu"]');
    if (!(menuBox instanceof HTMLElement)) return false;
    const outer = menuBox.getBoundingClientRect();
    // The menu's padding box: what its scrolling clips to.
    const left = outer.left + menuBox.clientLeft;
    const top = outer.top + menuBox.clientTop;
    const box = item.getBoundingClientRect();
    const style = getComputedStyle(item);
    // The ring reaches this far past the item, and a pixel more: outlines are painted on whole pixels,
    // so one that fits only to a fraction of a pixel is cut.
    const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset) + 1;
    return (
      box.left - ring >= left &&
      box.right + ring <= left + menuBox.clientWidth &&
      box.top - ring >= top &&
      box.bottom + ring <= top + menuBox.clientHeight
    );
  });
  expect(ringInside, "the focused item's ring inside its menu").toBe(true);
  await expectAccessible(page, "a message's context-edit menu open from the keyboard");
});
