import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, factRow, openPlayground, sendMessage, test } from "./support.ts";

/** Relative luminance (WCAG) of an element's background, walking up past transparent ones. */
async function backgroundLuminance(element: Locator): Promise<number> {
  return element.evaluate((start) => {
    let node: Element | null = start;
    while (node) {
      const match = /rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/.exec(
        getComputedStyle(node).backgroundColor,
      );
      if (match && (match[4] === undefined || Number(match[4]) > 0.5)) {
        const [r, g, b] = [match[1], match[2], match[3]].map((value) => {
          const channel = Number(value) / 255;
          return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      }
      node = node.parentElement;
    }
    return 1;
  });
}

const root = (page: Page) => page.locator("html");

test.describe("with the system in dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the page and the chat are dark and every text keeps its contrast", async ({ page }) => {
    await openPlayground(page);
    expect(await backgroundLuminance(root(page))).toBeLessThan(0.05);
    await expectAccessible(page, "dark: first open");

    await sendMessage(page, "Save a note: dark mode works");
    const card = page.getByRole("region", { name: "Approval request: Run save_note" });
    await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
    const conversation = page.getByRole("region", { name: "Conversation" });
    expect(await backgroundLuminance(conversation)).toBeLessThan(0.05);
    expect(await backgroundLuminance(page.getByRole("article", { name: "Your message" }))).toBeLessThan(0.05);
    expect(await backgroundLuminance(card)).toBeLessThan(0.05);

    await page.getByRole("button", { name: "Inspector", exact: true }).click();
    await factRow(page, 3, "assistant").click();
    await expectAccessible(page, "dark: tool call, pending approval, inspector with a fact selected");
    await card.getByRole("button", { name: "Approve" }).click();
    await expect(card).toHaveAttribute("data-status", "approved");
    await expectAccessible(page, "dark: approved");
  });

  test("Light can be chosen over the system's dark and is remembered across visits", async ({ page }) => {
    await openPlayground(page);
    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("menuitemradio", { name: /^Light/ }).click();
    expect(await backgroundLuminance(root(page))).toBeGreaterThan(0.8);
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("menuitemradio", { name: /^Light/ })).toHaveAttribute("aria-checked", "true");
    await page.keyboard.press("Escape");

    await page.reload();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(await backgroundLuminance(root(page))).toBeGreaterThan(0.8);
    await expectAccessible(page, "light chosen under a dark system");

    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("menuitemradio", { name: /^System/ }).click();
    expect(await backgroundLuminance(root(page))).toBeLessThan(0.05);
  });
});

test.describe("before the app's code has run", () => {
  test.use({ colorScheme: "dark", allowConsoleErrors: ["Failed to load resource"] });

  test("a remembered Light choice is already applied: no dark flash", async ({ page }) => {
    await openPlayground(page);
    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("menuitemradio", { name: /^Light/ }).click();
    // Only the page and its stylesheet load now: the app's scripts are refused.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    expect(await backgroundLuminance(root(page))).toBeGreaterThan(0.8);
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  });
});
