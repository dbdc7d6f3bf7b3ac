import type { Page } from "@playwright/test";
import { lastRequestLines, storedCalls } from "./stored-calls.ts";
import {
  expect,
  expectAccessible,
  factRow,
  lastReply,
  openPlayground,
  sendMessage,
  test,
} from "./support.ts";

/** Send a prompt and wait for Mirror's reply quoting it. */
async function converse(page: Page, text: string): Promise<void> {
  await sendMessage(page, text);
  await expect(lastReply(page).locator("blockquote")).toHaveText(text, { timeout: 15_000 });
}

/** Open the context-edit menu of a chat message and pick an item. */
async function chatEdit(page: Page, message: number, item: string): Promise<void> {
  await page.getByRole("button", { name: `Context edits for message ${message}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

test("an edit for the model reaches the next request while the inspector shows both versions; omit leaves the fact out, restore brings it back", async ({
  page,
}) => {
  await openPlayground(page);
  await converse(page, "my card number is 4111 1111");
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const facts = page.getByRole("region", { name: "Session facts" });
  await factRow(facts, 2, "user").click();
  const detail = page.getByRole("region", { name: "Selected fact" });
  await detail.getByRole("button", { name: "Edit for the model" }).click();
  const field = detail.getByRole("textbox", { name: "What the model reads of this fact" });
  await expect(field).toHaveValue("my card number is 4111 1111");
  await field.fill("my card number is [redacted]");
  await field.press("Enter");

  // Both versions, the fact unchanged, and the chat says what the model gets.
  const edit = detail.getByRole("region", { name: "Context edit" });
  await expect(edit.getByLabel("Original content")).toHaveText("my card number is 4111 1111");
  await expect(edit.getByLabel("Content the model reads")).toHaveText("my card number is [redacted]");
  await expect(factRow(facts, 2, "user", "edited: sent with new content")).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText([
    "my card number is 4111 1111",
  ]);
  const conversation = page.getByRole("region", { name: "Conversation" });
  await expect(conversation.getByText("sent edited (context edit)")).toBeVisible();
  await expect(
    conversation.getByText("Context edit · new content for the model: “my card number is 4111 1111”"),
  ).toBeVisible();
  await expectAccessible(page, "the inspector with an edited fact");

  await converse(page, "what did I tell you?");
  const edited = await lastRequestLines(page, 2);
  expect(edited[0]).toBe("user: my card number is [redacted]");
  expect(edited.at(-1)).toBe("user: what did I tell you?");

  // Omit it from the chat's own actions: the next request lacks it altogether.
  await chatEdit(page, 2, "Omit from the model");
  await expect(factRow(facts, 2, "user", "omitted by an edit")).toBeVisible();
  await expect(conversation.getByText("left out by a context edit")).toBeVisible();
  await converse(page, "and now?");
  const omitted = await lastRequestLines(page, 3);
  expect(omitted.join("\n")).not.toMatch(/^user: my card number/m);
  expect(omitted[0]).toMatch(/^assistant: I received 2 messages/);

  // Restore: the model reads the fact as it is again.
  await chatEdit(page, 2, "Restore");
  await expect(factRow(facts, 2, "user", /sent as-is|not yet sent \(as-is\)/)).toBeVisible();
  await converse(page, "once more");
  const restored = await lastRequestLines(page, 4);
  expect(restored[0]).toBe("user: my card number is 4111 1111");
});

test.describe("when a reply fails", () => {
  // The failed call's provider payload is asked of the proxy, which never saw the request: a 404.
  test.use({ allowConsoleErrors: ["status of 502", "status of 404"] });

  test("Retry continues without the failed reply, which stays among the facts as a failed attempt", async ({
    page,
  }) => {
    await openPlayground(page);
    await page.route("**/api/stream", (route) =>
      route.fulfill({
        status: 502,
        contentType: "application/json",
        body: JSON.stringify({ error: "upstream is on fire" }),
      }),
    );
    await sendMessage(page, "hello there");
    const failed = lastReply(page);
    await expect(failed.getByRole("alert")).toContainText("Proxy error: upstream is on fire");
    await page.unroute("**/api/stream");
    const before = (await storedCalls(page, 1)).length;
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect(lastReply(page).locator("blockquote")).toHaveText("hello there", { timeout: 15_000 });

    // The retry's request: the prompt, and nothing of the failed reply.
    expect(await lastRequestLines(page, before + 1)).toEqual(["user: hello there"]);
    await page.getByRole("button", { name: "Inspector", exact: true }).click();
    const facts = page.getByRole("region", { name: "Session facts" });
    await factRow(facts, 3, "assistant", "left out: failed attempt").click();
    await expect(page.getByRole("region", { name: "Selected fact" })).toContainText(
      "Retry left this failed reply out of what the model reads",
    );
    await expect(
      page.getByRole("region", { name: "Conversation" }).getByText("left out: failed attempt"),
    ).toBeVisible();
  });
});
