import type { Page } from "@playwright/test";
import { storedCalls } from "./stored-calls.ts";
import { expect, factRow, lastReply, openPlayground, sendMessage, test } from "./support.ts";

const sessionList = (page: Page) =>
  page.getByRole("region", { name: "Sessions" }).getByRole("list", { name: "Session list" });

async function converse(page: Page, text: string): Promise<void> {
  await sendMessage(page, text);
  await expect(lastReply(page).locator("blockquote")).toHaveText(text, { timeout: 15_000 });
}

/**
 * Start a new session and wait until it is the one shown: it is created asynchronously, and a message
 * typed before the switch would go into the old session's composer and be dropped with it.
 */
async function newSession(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New session", exact: true }).click();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
}

async function openSession(page: Page, title: string): Promise<void> {
  await sessionList(page)
    .getByRole("button", { name: new RegExp(`^${title}`) })
    .click();
  await expect(sessionList(page).getByRole("button", { name: new RegExp(`^${title}`) })).toHaveAttribute(
    "aria-current",
    "true",
  );
}

async function sessionAction(page: Page, title: string, action: string): Promise<void> {
  await sessionList(page)
    .getByRole("button", { name: `Actions for ${title}` })
    .click();
  await page.getByRole("menuitem", { name: action }).click();
}

test("three sessions stay intact across switches and a reload; a deleted one comes back with Undo", async ({
  page,
}) => {
  await openPlayground(page);
  await converse(page, "alpha question");
  for (const text of ["bravo question", "charlie question"]) {
    await newSession(page);
    await converse(page, text);
  }
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(3);

  for (const title of ["alpha question", "bravo question", "charlie question"]) {
    await openSession(page, title);
    await expect(page.getByRole("article", { name: "Your message" })).toHaveText([title]);
  }
  await page.reload();
  for (const title of ["bravo question", "alpha question", "charlie question"]) {
    await openSession(page, title);
    await expect(page.getByRole("article", { name: "Your message" })).toHaveText([title]);
    await expect(lastReply(page).locator("blockquote")).toHaveText(title);
  }
  await expect(sessionList(page).getByRole("button", { name: /^alpha question/ })).toContainText(
    "2 messages",
  );

  await sessionAction(page, "bravo question", "Delete");
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);
  await page.getByRole("status").getByRole("button", { name: "Undo" }).click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(3);
  await openSession(page, "bravo question");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["bravo question"]);
  await page.reload();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(3);
});

test("a deletion without Undo is final", async ({ page }) => {
  await openPlayground(page);
  await converse(page, "keep me");
  await newSession(page);
  await converse(page, "delete me");
  // The undo window is six seconds of the page's clock: run it forward instead of waiting.
  await page.clock.install();
  await sessionAction(page, "delete me", "Delete");
  await expect(page.getByRole("status").getByRole("button", { name: "Undo" })).toBeVisible();
  await page.clock.fastForward(6_500);
  await expect(page.getByRole("status").getByRole("button", { name: "Undo" })).toBeHidden();
  await page.reload();
  await expect(sessionList(page).getByRole("listitem")).toHaveText([/^keep me/]);
});

test("sessions can be renamed, searched and duplicated; titles default from the first message", async ({
  page,
}) => {
  await openPlayground(page);
  await converse(page, "How do tides work?");
  await expect(sessionList(page).getByRole("button", { name: /^How do tides work\?/ })).toBeVisible();

  await sessionAction(page, "How do tides work?", "Rename");
  await page.getByRole("textbox", { name: "New title" }).fill("Tides");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(sessionList(page).getByRole("button", { name: /^Tides/ })).toBeVisible();

  await sessionAction(page, "Tides", "Duplicate");
  await expect(sessionList(page).getByRole("button", { name: /^Copy of Tides/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["How do tides work?"]);

  await newSession(page);
  await converse(page, "Something else");
  await page.getByRole("searchbox", { name: "Search sessions" }).fill("tid");
  await expect(sessionList(page).getByRole("listitem")).toHaveText([/^Copy of Tides/, /^Tides/]);
});

test("everything a session owns persists with it: model, thinking level, prompt, policies, tool approvals, next turn", async ({
  page,
}) => {
  await openPlayground(page);
  await sessionAction(page, "New session", "Rename");
  await page.getByRole("textbox", { name: "New title" }).fill("Configured");
  await page.getByRole("button", { name: "Save", exact: true }).click();

  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill("thinking");
  await page.getByRole("combobox", { name: "Search models" }).press("Enter");
  await page.getByRole("combobox", { name: "Thinking" }).selectOption("low");
  await page.getByText("System prompt", { exact: true }).click();
  await page.getByRole("button", { name: "Edit system prompt" }).click();
  await page.getByRole("textbox", { name: "System prompt text" }).fill("Be a mirror.");
  await page.getByRole("button", { name: "Save system prompt" }).click();
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("combobox", { name: "Progress" }).selectOption("userText");
  await page.getByRole("button", { name: "Tools" }).click();
  await page
    .getByRole("dialog", { name: "Tools" })
    .getByRole("checkbox", { name: "calculate requires approval" })
    .check();
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Text", { exact: true }).fill("held for later");
  await dialog.getByRole("radio", { name: "Next turn" }).check();
  await dialog.getByRole("button", { name: "Inject: next turn" }).click();

  await page.getByRole("button", { name: "New session", exact: true }).click();
  await expect(page.getByRole("button", { name: /^Model:/ })).toHaveText("Model: Mirror (offline)");
  await page.reload();
  await openSession(page, "Configured");

  await expect(page.getByRole("button", { name: /^Model:/ })).toHaveText(
    "Model: Mirror with thinking (offline)",
  );
  await expect(page.getByRole("combobox", { name: "Thinking" })).toHaveValue("low");
  await expect(page.getByRole("combobox", { name: "Progress" })).toHaveValue("userText");
  await page.getByText("System prompt", { exact: true }).click();
  await expect(page.getByText("Be a mirror.", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Tools" }).click();
  await expect(
    page
      .getByRole("dialog", { name: "Tools" })
      .getByRole("checkbox", { name: "calculate requires approval" }),
  ).toBeChecked();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("region", { name: "Queued messages" })).toContainText("held for later");
});

test("copy to a new session from a fact, then return with a branch summary where the copy began", async ({
  page,
}) => {
  await openPlayground(page);
  await converse(page, "main line one");
  await converse(page, "main line two");
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const facts = page.getByRole("region", { name: "Session facts" });
  await factRow(facts, 3).click();
  await page
    .getByRole("region", { name: "Selected fact" })
    .getByRole("button", { name: "Copy to new session" })
    .click();

  await expect(
    sessionList(page).getByRole("button", { name: /^Fork of main line one at fact 3/ }),
  ).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["main line one"]);
  await converse(page, "try the risky idea");

  await page.getByRole("button", { name: "Return with a branch summary" }).click();
  await expect(page.getByRole("textbox", { name: "Branch summary" })).toHaveValue(
    "On the branch we asked: “try the risky idea”.",
  );
  await page
    .getByRole("textbox", { name: "Branch summary" })
    .fill("The risky idea failed: it broke the build.");
  await page.getByRole("button", { name: "Add summary and return" }).click();

  await expect(sessionList(page).getByRole("button", { name: /^main line one/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
  const summary = page.getByRole("region", { name: "Branch summary" });
  await expect(summary).toContainText("The risky idea failed: it broke the build.");
  await expect(factRow(facts, 6, "branchSummary", "not yet sent (→ user)")).toBeVisible();
});

test("changing a policy does not reorder the sessions list", async ({ page }) => {
  await openPlayground(page);
  await converse(page, "alpha question");
  await newSession(page);
  await converse(page, "bravo question");
  const titles = sessionList(page).getByRole("button", { name: /^\w+ question/ });
  await expect(titles).toHaveText([/^bravo question/, /^alpha question/]);

  await openSession(page, "alpha question");
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  await expect(page.getByRole("combobox", { name: "Notifications" })).toHaveValue("userText");
  await page.reload();
  await expect(titles).toHaveText([/^bravo question/, /^alpha question/]);
  // A new message does move it up: the list is by last activity in the conversation.
  await openSession(page, "alpha question");
  await converse(page, "alpha again");
  await expect(titles).toHaveText([/^alpha question/, /^bravo question/]);
});

test("relative times in the sessions list refresh: just now becomes minutes ago", async ({ page }) => {
  await page.clock.install();
  // The call's record is stored once the proxy hands over its payload, which may come after the clock
  // moved on: held here until then, so the session's time must be the call's, not the storing's.
  let releasePayload = (): void => undefined;
  const payloadHeld = new Promise<void>((resolve) => (releasePayload = resolve));
  await page.route("**/api/calls/*/payload", async (route) => {
    await payloadHeld;
    await route.continue();
  });
  await openPlayground(page);
  await converse(page, "a question");
  const item = sessionList(page).getByRole("button", { name: /^a question/ });
  await expect(item).toContainText("just now");
  await page.clock.fastForward("03:00");
  releasePayload();
  await storedCalls(page, 1);
  await expect(item).toContainText("3 min ago");
});
