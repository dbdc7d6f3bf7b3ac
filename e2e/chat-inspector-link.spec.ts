import type { Page } from "@playwright/test";
import { onDisk, piSessionFile, userChain } from "./fixtures/session-files.ts";
import { expect, factRow, lastReply, openPlayground, sendMessage, test } from "./support.ts";

const log = (page: Page) => page.getByRole("log", { name: "Messages" });

async function loadExample(page: Page, name: RegExp): Promise<void> {
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name }).click();
}

test("the chat marks what the model does not see, or sees converted, from the model view", async ({
  page,
}) => {
  await openPlayground(page);
  await loadExample(page, /bash output/);
  // Two ! commands reach the model as user text; the !! one never does.
  await expect(log(page).getByText("sent as user text", { exact: true })).toHaveCount(2);
  await expect(log(page).getByText("hidden from the model (!!)", { exact: true })).toHaveCount(1);

  await loadExample(page, /notifications, hidden/);
  await expect(log(page).getByText("hidden from the model", { exact: true })).toHaveCount(3);
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  await expect(log(page).getByText("sent as user text", { exact: true })).toHaveCount(2);
  await expect(log(page).getByText("hidden from the model", { exact: true })).toHaveCount(1);
});

test("selecting a fact scrolls to its chat message and highlights it, and the reverse", async ({ page }) => {
  await openPlayground(page);
  for (const word of ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]) {
    await sendMessage(page, `${word}\n\nline\n\nline\n\nline`);
    await expect(lastReply(page).locator("blockquote")).toContainText(word, { timeout: 15_000 });
  }
  const first = page.getByRole("article", { name: "Your message" }).first();
  await expect(first).not.toBeInViewport();

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await factRow(page, 2, "user").click();
  await expect(first).toBeInViewport();
  await expect(log(page).locator("[aria-current=true]")).toContainText("alpha");

  // From the chat: the message's "Show in inspector" selects its fact and its model message.
  // The chat renders the messages near its view: back to the latest, where message 12 is.
  await page.getByRole("button", { name: "Jump to latest" }).click();
  const last = page.getByRole("article", { name: "Your message" }).last();
  await expect(last).toContainText("foxtrot");
  // The reader scrolls up a little to their message (at the bottom the view would keep following).
  await log(page).hover();
  await page.mouse.wheel(0, -200);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  await last.hover();
  const actions = page.getByRole("group", { name: "Actions for message 12" });
  await actions.getByRole("button", { name: "Show in inspector" }).click();
  await expect(factRow(page, 12, "user")).toHaveAttribute("aria-selected", "true");
  await expect(factRow(page, 12, "user")).toBeInViewport();
  await expect(page.getByRole("region", { name: "Selected fact" })).toContainText("foxtrot");
  await expect(log(page).locator("[aria-current=true]")).toContainText("foxtrot");
});

test("a fact chosen far up a long session stays in view in the chat once its neighbours have rendered", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByLabel("Import a session file").setInputFiles(
    await onDisk(
      "long.jsonl",
      piSessionFile(
        // Messages of unequal height: where one lies is known only once its neighbours have rendered.
        userChain(600, (index) =>
          [`msg-${index}-end`, ...Array.from({ length: index % 7 }, () => "a paragraph")].join("\n\n"),
        ),
        "long",
      ),
    ),
  );
  await expect(log(page).getByText("msg-599-end")).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const facts = page.getByRole("region", { name: "Session facts" });
  for (const index of [150, 420, 30]) {
    const search = facts.getByRole("searchbox", { name: "Search facts" });
    await search.fill(`msg-${index}-end`);
    await expect(facts.getByRole("search", { name: "Search facts" }).getByRole("status")).toHaveText(
      "1 match",
    );
    await search.press("Enter");
    const message = log(page).getByText(`msg-${index}-end`);
    await expect(message).toBeInViewport();
    // Half a second on, the messages around it rendered and measured: it is still where the reader looks
    // (it was once shown for a moment and then left 1,400 px below the view).
    await page.waitForTimeout(500);
    await expect(message).toBeInViewport({ timeout: 1_000 });
  }
});

test("the chat follows your own new message after a fact far up was selected", async ({ page }) => {
  await openPlayground(page);
  for (const word of ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]) {
    await sendMessage(page, `${word}\n\nline\n\nline\n\nline`);
    await expect(lastReply(page).locator("blockquote")).toContainText(word, { timeout: 15_000 });
  }
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await factRow(page, 2, "user").click();
  await expect(page.getByRole("article", { name: "Your message" }).first()).toBeInViewport();

  // Typed and sent with Enter, nothing else clicked: the message and its reply are in view.
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill("golf");
  await composer.press("Enter");
  const sent = page.getByRole("article", { name: "Your message" }).filter({ hasText: "golf" });
  await expect(sent).toBeInViewport();
  await expect(lastReply(page).locator("blockquote")).toContainText("golf", { timeout: 15_000 });
  await expect(lastReply(page)).toBeInViewport();
  await expect(page.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);
});

test("a tool result selected in the inspector highlights the call it answers", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "compute 6 * 7");
  await expect(page.getByLabel("Result of calculate")).toHaveText("6 * 7 = 42", { timeout: 15_000 });
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await factRow(page, 4, "toolResult").click();
  await expect(page.getByRole("region", { name: "Tool call calculate" })).toHaveAttribute(
    "aria-current",
    "true",
  );
});

test("each message can be copied and forked (a branch of the same session) from its own actions", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openPlayground(page);
  await sendMessage(page, "remember the blue door");
  await expect(lastReply(page).locator("blockquote")).toHaveText("remember the blue door", {
    timeout: 15_000,
  });
  await sendMessage(page, "second turn");
  await expect(lastReply(page).locator("blockquote")).toHaveText("second turn", { timeout: 15_000 });

  const actions = page.getByRole("group", { name: "Actions for message 2" });
  // The actions show on focus, not only on hover.
  await actions.getByRole("button", { name: "Copy" }).focus();
  await expect(actions.getByRole("button", { name: "Copy" })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(actions.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("remember the blue door");

  await page
    .getByRole("group", { name: "Actions for message 3" })
    .getByRole("button", { name: "Fork from here" })
    .click();
  // A new branch in the same session, from the reply: the turn after it is on the branch left.
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["remember the blue door"]);
  await expect(page.getByRole("complementary", { name: "New branch" })).toContainText(
    "Back to “second turn”",
  );
  await expect(page.getByRole("region", { name: "Sessions" }).getByRole("listitem")).toHaveCount(1);
});
