import { expect, lastReply, openPlayground, readStoredSession, sendMessage, test } from "./support.ts";

test("two tabs on one session: each sees the other's messages without reload, runs never interleave, nothing is lost or doubled", async ({
  page,
  context,
}) => {
  await openPlayground(page);
  const other = await context.newPage();
  await openPlayground(other);

  await sendMessage(page, `from the first tab ${"slowly ".repeat(30)}`);
  // While the first tab runs, the second shows it and does not start a run of its own.
  await expect(other.getByRole("button", { name: "Send" })).toBeDisabled();
  await expect(lastReply(page)).toContainText("from the first tab", { timeout: 20_000 });
  await expect(other.getByRole("article", { name: "Your message" })).toContainText(["from the first tab"]);
  await expect(lastReply(other)).toContainText("I received 2 messages: system, user.");

  await other.getByRole("textbox", { name: "Message" }).fill("from the second tab");
  await expect(other.getByRole("button", { name: "Send" })).toBeEnabled();
  await other.getByRole("button", { name: "Send" }).click();
  await expect(lastReply(other).locator("blockquote")).toHaveText("from the second tab", { timeout: 15_000 });
  await expect(lastReply(page).locator("blockquote")).toHaveText("from the second tab");
  await expect(lastReply(page)).toContainText("I received 4 messages: system, user, assistant, user.");

  await sendMessage(page, "first tab again");
  await expect(lastReply(other).locator("blockquote")).toHaveText("first tab again", { timeout: 15_000 });

  const stored = await readStoredSession(page);
  expect(stored.roles).toEqual(["system", "user", "assistant", "user", "assistant", "user", "assistant"]);
  await other.reload();
  await expect(other.getByRole("article", { name: "Your message" })).toHaveCount(3);
});

test("when the tab running a session is closed mid-run, the other tab can go on", async ({
  page,
  context,
}) => {
  await openPlayground(page);
  const other = await context.newPage();
  await openPlayground(other);
  await sendMessage(page, `a long one ${"word ".repeat(200)}`);
  await expect(other.getByRole("button", { name: "Send" })).toBeDisabled();
  // Close while the reply is visibly streaming (so part of it exists to be kept).
  await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toContainText(
    "I received",
  );
  await page.close();

  await other.getByRole("textbox", { name: "Message" }).fill("still here");
  await expect(other.getByRole("button", { name: "Send" })).toBeEnabled();
  await other.getByRole("button", { name: "Send" }).click();
  await expect(lastReply(other).locator("blockquote")).toHaveText("still here", { timeout: 15_000 });
  // The reply the closed tab was streaming is kept, as interrupted, before the new prompt.
  const replies = other.getByRole("article", { name: "Assistant reply", exact: true });
  await expect(replies).toHaveCount(2);
  await expect(replies.first()).toHaveAttribute("data-stop-reason", "aborted");
  await expect(replies.first()).toContainText("Interrupted: the page was closed or reloaded");
  expect((await readStoredSession(other)).roles).toEqual([
    "system",
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
});

test("two tabs pressing Send at the same moment: one runs, the other keeps its prompt and says why", async ({
  page,
  context,
}) => {
  await openPlayground(page);
  const other = await context.newPage();
  await openPlayground(other);
  // Whichever tab wins runs for seconds, so the other's reason is on screen long enough to be read.
  for (const tab of [page, other])
    await tab.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  await page.getByRole("textbox", { name: "Message" }).fill(`from the first tab ${"slowly ".repeat(20)}`);
  await other.getByRole("textbox", { name: "Message" }).fill("from the second tab");
  // Both press Enter at once. On a busy machine one tab may hear that the other started before its own
  // key arrives: then it does not send, and its composer says why. Either way the prompt stays and the
  // reason shows.
  await Promise.all([
    page.getByRole("textbox", { name: "Message" }).press("Enter"),
    other.getByRole("textbox", { name: "Message" }).press("Enter"),
  ]);
  const tabs = [page, other];
  const refused = async () => {
    for (const tab of tabs)
      if (
        await tab
          .getByText(/running in another tab/)
          .first()
          .isVisible()
      )
        return tab;
    return undefined;
  };
  await expect.poll(async () => (await refused()) !== undefined, { timeout: 10_000 }).toBe(true);
  const loser = (await refused()) as typeof page;
  const winner = loser === page ? other : page;
  const lostPrompt = loser === page ? `from the first tab ${"slowly ".repeat(20)}` : "from the second tab";
  // Nothing typed is dropped: the prompt that could not run is still in its composer.
  await expect(loser.getByRole("textbox", { name: "Message" })).toHaveValue(lostPrompt);
  await expect(lastReply(winner)).toBeVisible({ timeout: 20_000 });
  // Once the other run is over, it can be sent as it is.
  await expect(loser.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: 20_000 });
  await loser.getByRole("button", { name: "Send" }).click();
  await expect(lastReply(loser).locator("blockquote")).toHaveText(lostPrompt.trim(), { timeout: 15_000 });
  expect((await readStoredSession(winner)).roles).toEqual([
    "system",
    "user",
    "assistant",
    "user",
    "assistant",
  ]);
});
