import type { Locator, Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  factRow,
  lastReply,
  openPlayground,
  sendMessage,
  test,
} from "./support.ts";

async function loadExample(page: Page, name: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name }).click();
}

/** The text of every match marked inside an element (the CSS highlight named "search-match"). */
async function marked(scope: Locator): Promise<string[]> {
  return scope.evaluate((element) =>
    [...(CSS.highlights.get("search-match") ?? [])]
      .filter((range) => element.contains(range.startContainer))
      .map((range) => (range as Range).toString()),
  );
}

async function openInspector(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: "Inspector", exact: true });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Session facts" })).toBeVisible();
}

test("searching the facts, the model view and the calls: count, marks, Enter to the next match, Escape clears", async ({
  page,
}) => {
  await openPlayground(page);
  await loadExample(page, /approval trail/);
  await openInspector(page);

  const facts = page.getByRole("region", { name: "Session facts" });
  const factsSearch = facts.getByRole("searchbox", { name: "Search facts" });
  const factsStatus = facts.getByRole("search", { name: "Search facts" }).getByRole("status");

  // A tool's name: the system prompt's list of tools, the call in the reply, the approval request and
  // the tool's result.
  await factsSearch.fill("save_note");
  await expect(factsStatus).toHaveText("4 matches");
  await expect.poll(() => marked(facts)).toContain("save_note");
  await expectAccessible(page, "facts searched");

  await factsSearch.press("Enter");
  await expect(factsStatus).toHaveText("1 of 4");
  await expect(factRow(page, 1, "system")).toHaveAttribute("aria-selected", "true");
  await factsSearch.press("Enter");
  await expect(factsStatus).toHaveText("2 of 4");
  await expect(factRow(page, 3, "assistant")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => marked(factRow(page, 3, "assistant"))).toEqual(["save_note", "save_note"]);
  await facts.getByRole("button", { name: "Next match" }).click();
  await expect(factsStatus).toHaveText("3 of 4");
  await expect(factRow(page, 4, "approval_request")).toHaveAttribute("aria-selected", "true");
  await factsSearch.press("Enter");
  await expect(factsStatus).toHaveText("4 of 4");
  await expect(factRow(page, 5, "toolResult")).toHaveAttribute("aria-selected", "true");
  // Past the last, back to the first; Shift+Enter goes back.
  await factsSearch.press("Enter");
  await expect(factsStatus).toHaveText("1 of 4");
  await factsSearch.press("Shift+Enter");
  await expect(factsStatus).toHaveText("4 of 4");
  await expect(factRow(page, 5, "toolResult")).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page, "facts searched, a match selected");

  // A role, and a query of pattern characters, which is text.
  await factsSearch.fill("approval_request");
  await expect(factsStatus).toHaveText("3 matches");
  await factsSearch.fill(".*(");
  await expect(factsStatus).toHaveText("No matches");
  await expect(facts.getByRole("button", { name: "Next match" })).toBeDisabled();
  // A pasted megabyte is cut, and said to be.
  await factsSearch.fill("x".repeat(1_000_000));
  await expect(factsStatus).toHaveText("No matches (query cut to 1,000 characters)");

  // Escape clears the box and the marks.
  await factsSearch.press("Escape");
  await expect(factsSearch).toHaveValue("");
  await expect(factsStatus).toHaveText("");
  await expect.poll(() => marked(facts)).toEqual([]);

  // The model view: the approval request is not in it, so the tool's name is in three messages. The
  // search goes on from the selection (the tool's result, the last match) and wraps to the first.
  const model = page.getByRole("region", { name: "Model view" });
  const modelSearch = model.getByRole("searchbox", { name: "Search the model view" });
  await modelSearch.fill("SAVE_NOTE");
  await expect(model.getByRole("status")).toHaveText("3 matches");
  await modelSearch.press("Enter");
  await expect(model.getByRole("status")).toHaveText("1 of 3");
  await expect(
    model.getByRole("listbox", { name: "Model messages" }).getByRole("option", { selected: true }),
  ).toHaveAccessibleName(/^Model message 1: system, from fact 1\./);
  await modelSearch.press("Escape");
  await expect(modelSearch).toHaveValue("");

  // The calls: two calls made, the second found by its number and gone to.
  await sendMessage(page, "first question");
  await expect(lastReply(page)).toContainText("first question", { timeout: 15_000 });
  await sendMessage(page, "second question");
  await expect(lastReply(page)).toContainText("second question", { timeout: 15_000 });
  await page.getByRole("tab", { name: "Calls" }).click();
  const calls = page.getByRole("region", { name: "Calls" });
  await expect(calls.getByRole("listbox", { name: "Recorded calls" }).getByRole("option")).toHaveCount(2);
  const callsSearch = calls.getByRole("searchbox", { name: "Search calls" });
  await callsSearch.fill("mirror");
  await expect(calls.getByRole("search", { name: "Search calls" }).getByRole("status")).toHaveText(
    "2 matches",
  );
  await callsSearch.fill("#1");
  await callsSearch.press("Enter");
  await expect(calls.getByRole("search", { name: "Search calls" }).getByRole("status")).toHaveText("1 of 1");
  const list = calls.getByRole("listbox", { name: "Recorded calls" });
  await expect(list.getByRole("option", { selected: true })).toHaveAccessibleName(/^Call #1 /);
  await expect.poll(() => marked(list.getByRole("option", { selected: true }))).toEqual(["#1"]);
  await expectAccessible(page, "calls searched, a match selected");
  await callsSearch.press("Escape");
  await expect(callsSearch).toHaveValue("");
  await expect.poll(() => marked(list)).toEqual([]);

  // Shift+F, outside a text field, goes to the search of the inspector's tab.
  await list.focus();
  await page.keyboard.press("Shift+F");
  await expect(callsSearch).toBeFocused();
});
