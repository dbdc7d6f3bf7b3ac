import { expect, expectAccessible, openPlayground, test } from "./support.ts";

test("the session menu opens above everything, whole and readable; Undo after a delete is readable", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Actions for New session" }).click();
  const menu = page.getByRole("menu", { name: "Actions for New session" });
  await expect(menu).toBeVisible();

  // No container clips it: every item is fully inside the viewport, and is what the page shows at its
  // centre (nothing covers it, nothing cuts it off).
  const viewport = page.viewportSize();
  for (const item of await menu.getByRole("menuitem").all()) {
    const box = await item.boundingBox();
    expect(box).not.toBeNull();
    if (!box || !viewport) continue;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.width).toBeGreaterThan(80);
    const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent?.trim(), {
      x: box.x + box.width - 4,
      y: box.y + box.height / 2,
    });
    expect(onTop).toBe((await item.textContent())?.trim());
  }
  await expectAccessible(page, "session menu open");

  await menu.getByRole("menuitem", { name: "Delete" }).click();
  const undo = page.getByRole("status").getByRole("button", { name: "Undo" });
  await expect(undo).toBeFocused();
  await expectAccessible(page, "undo after delete");
});
