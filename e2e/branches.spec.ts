import type { Page } from "@playwright/test";
import { lastRequestLines } from "./stored-calls.ts";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/** Send a prompt and wait for Mirror's reply quoting it. */
async function converse(page: Page, text: string): Promise<void> {
  await sendMessage(page, text);
  await expect(lastReply(page).locator("blockquote")).toHaveText(text, { timeout: 15_000 });
}

const prompts = (page: Page) => page.getByRole("article", { name: "Your message" });
const actions = (page: Page, message: number) =>
  page.getByRole("group", { name: `Actions for message ${message}` });

/** A session of two turns: facts 1 system, 2 "plan the trip", 3 its reply, 4 "go by car", 5 its reply. */
async function twoTurns(page: Page): Promise<void> {
  await openPlayground(page);
  await converse(page, "plan the trip");
  await converse(page, "go by car");
}

test("fork from a reply, the tree shows both branches, and switching back with a summary sends the summary, not the branch left", async ({
  page,
}) => {
  await twoTurns(page);
  await actions(page, 3).getByRole("button", { name: "Fork from here" }).click();

  // The same session continues from the reply; the banner names both branches by what they say.
  const banner = page.getByRole("complementary", { name: "New branch" });
  await expect(banner).toContainText("On a new branch from “I received 2 messages: system, user.");
  await expect(banner.getByRole("button", { name: "Back to “go by car”" })).toBeVisible();
  await expect(prompts(page)).toHaveText(["plan the trip"]);
  await converse(page, "go by train");
  await expect(page.getByRole("list", { name: "Session list" }).getByRole("listitem")).toHaveCount(1);
  expect(await lastRequestLines(page, 3)).toEqual([
    "user: plan the trip",
    expect.stringContaining("assistant: I received 2 messages"),
    "user: go by train",
  ]);

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Tree" }).click();
  const region = page.getByRole("region", { name: "Session tree" });
  await expect(region).toContainText("2 branches · 7 entries");
  const tree = region.getByRole("listbox", { name: "Session tree" });
  await expect(tree.getByRole("option", { name: "you: go by car, first entry of a branch" })).toBeVisible();
  await expect(
    tree.getByRole("option", { name: "you: go by train, first entry of a branch, on the current path" }),
  ).toBeVisible();
  await expect(tree.getByRole("option", { name: /, the current leaf$/ })).toHaveCount(1);
  await expectAccessible(page, "the tree view with two branches");

  // By keyboard: the list is one Tab stop; arrows move, Enter chooses.
  await tree.focus();
  await page.keyboard.press("Home");
  for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  const chosen = page.getByRole("region", { name: "Chosen entry" });
  await expect(chosen).toContainText("On the branch “go by car”, not the current one.");
  await chosen.getByRole("button", { name: "Switch to this branch…" }).click();

  const dialog = page.getByRole("dialog", { name: "Switch to “go by car”" });
  await expect(dialog).toContainText("You leave “go by train”.");
  const summary = dialog.getByRole("textbox", { name: "Summary of “go by train” for the model (optional)" });
  await expect(summary).toHaveValue("");
  await summary.fill("Trains were sold out that week.");
  await expectAccessible(page, "switching branches with a summary");
  await dialog.getByRole("button", { name: "Switch with this summary" }).click();
  await expect(dialog).toBeHidden();
  await expect(tree).toBeFocused();

  await expect(prompts(page)).toHaveText(["plan the trip", "go by car"]);
  const card = page.getByRole("region", { name: "Branch summary" });
  await expect(card).toContainText("what was tried on “go by train”");
  await expect(card).toContainText("Trains were sold out that week.");
  await expect(tree.getByRole("option", { name: /^branch summary: Trains were sold out/ })).toBeVisible();

  // The next request: the car branch, the summary as user text, the new prompt; nothing of the train.
  await converse(page, "the car, then");
  const sent = await lastRequestLines(page, 4);
  expect(sent).toEqual([
    "user: plan the trip",
    expect.stringContaining("assistant: I received 2 messages"),
    "user: go by car",
    expect.stringContaining("assistant: I received 4 messages"),
    expect.stringContaining("Trains were sold out that week."),
    "user: the car, then",
  ]);
  expect(sent.join("\n")).not.toContain("go by train");
});

test("the banner after a fork goes back to the branch that was left", async ({ page }) => {
  await twoTurns(page);
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page
    .getByRole("listbox", { name: "Facts" })
    .getByRole("option", { name: /^Fact 2: user/ })
    .click();
  await page
    .getByRole("region", { name: "Selected fact" })
    .getByRole("button", { name: "Fork from here" })
    .click();
  await expect(prompts(page)).toHaveText(["plan the trip"]);
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(0);
  const banner = page.getByRole("complementary", { name: "New branch" });
  await expect(banner).toContainText("On a new branch from “plan the trip”");
  await banner.getByRole("button", { name: "Back to “go by car”" }).click();
  await expect(prompts(page)).toHaveText(["plan the trip", "go by car"]);
  await expect(banner).toBeHidden();
  await page.reload();
  await expect(prompts(page)).toHaveText(["plan the trip", "go by car"]);
});

test("regenerate answers again on a branch of its own; edit and ask again sends the edited prompt, Escape cancels", async ({
  page,
}) => {
  await twoTurns(page);
  await actions(page, 5).getByRole("button", { name: "Regenerate" }).click();
  await expect(lastReply(page).locator("blockquote")).toHaveText("go by car", { timeout: 15_000 });
  // The regenerated reply answered the same prompt, on a branch beside the first reply.
  expect(await lastRequestLines(page, 3)).toEqual([
    "user: plan the trip",
    expect.stringContaining("assistant: I received 2 messages"),
    "user: go by car",
  ]);
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(2);

  // Edit and ask again: the text opens in place; Escape leaves everything as it was.
  await actions(page, 4).getByRole("button", { name: "Edit & ask again" }).click();
  const field = page.getByRole("textbox", { name: "Edit and ask again" });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("go by car");
  await page.keyboard.press("Escape");
  await expect(field).toBeHidden();
  await expect(prompts(page)).toHaveText(["plan the trip", "go by car"]);

  await actions(page, 4).getByRole("button", { name: "Edit & ask again" }).click();
  await field.fill("go by bike");
  await expectAccessible(page, "editing a prompt in place");
  await field.press("Enter");
  await expect(lastReply(page).locator("blockquote")).toHaveText("go by bike", { timeout: 15_000 });
  await expect(prompts(page)).toHaveText(["plan the trip", "go by bike"]);
  expect(await lastRequestLines(page, 4)).toEqual([
    "user: plan the trip",
    expect.stringContaining("assistant: I received 2 messages"),
    "user: go by bike",
  ]);

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Tree" }).click();
  // Three branches: the first reply to "go by car", the regenerated one, and "go by bike".
  await expect(page.getByRole("region", { name: "Session tree" })).toContainText("3 branches");
});

test("the fork banner shows a reply's text as read, not its raw Markdown backticks", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "compute 6 * 7");
  await expect(page.getByLabel("Result of calculate")).toHaveText("6 * 7 = 42", { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 15_000 });
  await page
    .getByRole("group", { name: "Actions for message 3" })
    .getByRole("button", { name: "Fork from here" })
    .click();
  const banner = page.getByRole("complementary", { name: "New branch" });
  await expect(banner).toContainText("Calling calculate.");
  await expect(banner).not.toContainText("`");
});
