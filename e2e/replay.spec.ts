import { readFile } from "node:fs/promises";
import type { Message } from "@earendil-works/pi-ai";
import type { Page } from "@playwright/test";
import { readStoredCalls, storedCalls, type StoredCall } from "./stored-calls.ts";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/** What a message records of its making (when, cost, duration, reply id): no provider reads it. */
const BOOKKEEPING = ["timestamp", "usage", "durationMs", "responseId"];

/** A call's model view as JSON, without the bookkeeping a replay makes anew. */
function viewOf(call: StoredCall | undefined): string {
  if (call?.messages.kept !== "all" || !call.messages.value)
    throw new Error("a call's messages were not kept");
  return JSON.stringify(
    call.messages.value.map((message: Message) =>
      Object.fromEntries(Object.entries(message).filter(([key]) => !BOOKKEEPING.includes(key))),
    ),
  );
}

async function addAskTool(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Tools" }).click();
  const dialog = page.getByRole("dialog", { name: "Tools" });
  await dialog.getByRole("button", { name: "Add a tool" }).click();
  const editor = dialog.getByRole("form", { name: "Tool definition" });
  await editor.getByRole("textbox", { name: "Name" }).fill("ask_human");
  await editor.getByRole("textbox", { name: "Description (what the model reads)" }).fill("Asks the person.");
  await editor
    .getByRole("textbox", { name: "Parameters (JSON Schema of an object)" })
    .fill('{"type": "object", "properties": {"question": {"type": "string"}}}');
  await editor.getByRole("radio", { name: /^Ask me/ }).check();
  await editor.getByRole("button", { name: "Save tool" }).click();
  await expect(editor).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();
}

async function injectNotification(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill(text);
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(dialog).toBeHidden();
}

/** Six calls: two of them tool calls (calculate, and ask_human answered by hand), a notification between. */
async function recordSession(page: Page): Promise<void> {
  await addAskTool(page);
  await sendMessage(page, "what is 2 + 3?");
  await expect(lastReply(page)).toContainText("returned: 2 + 3 = 5");
  await injectNotification(page, "Deploy 1234 finished");
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("hello");
  await sendMessage(page, 'call ask_human with {"question": "Which color?"}');
  const call = page.getByRole("region", { name: "Tool call ask_human" });
  await call.getByRole("textbox", { name: /type it/ }).fill("blue");
  await call.getByRole("button", { name: "Send result" }).click();
  await expect(lastReply(page)).toContainText("ask_human returned: blue");
  await sendMessage(page, "thanks");
  await expect(lastReply(page)).toContainText("thanks");
  await storedCalls(page, 6);
}

async function openReplay(page: Page) {
  // The inspector may be open already (it stays as it was left, across reloads).
  const tab = page.getByRole("tab", { name: "Replay" });
  await expect(async () => {
    if (!(await tab.isVisible())) await page.getByRole("button", { name: "Inspector", exact: true }).click();
    await expect(tab).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await tab.click();
  const view = page.getByRole("region", { name: "Replay" });
  await expect(view.getByRole("form", { name: "Replay from a fact" })).toBeVisible();
  return view;
}

test("a session replayed from its first fact: unchanged it reproduces every call's model view with recorded tool results; with notifications as user text it diverges at the first call after the notification; both survive reload, export and import", async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  await recordSession(page);
  const recorded = await readStoredCalls(page);

  const view = await openReplay(page);
  const form = view.getByRole("form", { name: "Replay from a fact" });
  await expect(form.getByRole("combobox", { name: "Replay from" })).toHaveValue("0");
  await form.getByRole("button", { name: "Replay" }).click();
  const progress = view.getByRole("region", { name: "Replay in progress" });
  await expect(progress).toContainText("The replay is over: 6 calls made", { timeout: 60_000 });
  // Nothing ran: both tool calls got their recorded results (ask_human would have waited for a person).
  await expect(progress).toContainText("2 tool results from the recording, 0 tool runs");
  await expect(page.getByRole("region", { name: "Tool call ask_human" }).last()).not.toContainText(
    "waiting for you",
  );

  // Every call's model view equals the recorded one's, compared here from storage, as JSON.
  const unchanged = await storedCalls(page, 12);
  for (let index = 0; index < 6; index++) expect(viewOf(unchanged[index + 6])).toBe(viewOf(recorded[index]));
  const first = view.getByRole("article", { name: "Replay: unchanged" });
  await expect(first.getByLabel("Divergence")).toHaveText(
    "No divergence: every call's model view is the same as the recorded one.",
  );
  await expect(first.getByRole("list", { name: "Calls compared" }).getByRole("listitem")).toHaveCount(6);
  await expectAccessible(page, "a replay beside its recorded branch");

  // Back on the recorded branch, replay it with notifications shown to the model as user text.
  await first.getByRole("button", { name: "Go to the recorded branch" }).click();
  await form.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  await form.getByRole("button", { name: "Replay" }).click();
  await expect(progress).toContainText("The replay is over", { timeout: 60_000 });
  const changed = await storedCalls(page, 18);
  const replayed = changed.slice(12);
  // The calls before the notification are the same; from the first call after it on, they differ.
  expect(viewOf(replayed[0])).toBe(viewOf(recorded[0]));
  expect(viewOf(replayed[1])).toBe(viewOf(recorded[1]));
  for (let index = 2; index < Math.min(6, replayed.length); index++)
    expect(viewOf(replayed[index])).not.toBe(viewOf(recorded[index]));
  expect(viewOf(replayed[2])).toContain("Deploy 1234 finished");
  expect(viewOf(recorded[2])).not.toContain("Deploy 1234 finished");
  const second = view.getByRole("article", { name: "Replay: notification as user text" });
  await expect(second.getByLabel("Divergence")).toHaveText("First divergence: call 3.");
  // The session's own policy is unchanged.
  await page.getByRole("tab", { name: "Facts and model view" }).click();
  await expect(page.getByRole("combobox", { name: "Notifications" })).toHaveValue("hidden");

  // Reload: both replays are still there, with their comparisons.
  await page.reload();
  const again = await openReplay(page);
  await expect(again.getByRole("article", { name: /^Replay: / })).toHaveCount(2);
  await expect(
    again.getByRole("article", { name: "Replay: notification as user text" }).getByLabel("Divergence"),
  ).toHaveText("First divergence: call 3.");

  // Export as JSONL, import in a fresh profile: the replays and their comparisons come along.
  const item = page
    .getByRole("region", { name: "Sessions" })
    .getByRole("list", { name: "Session list" })
    .getByRole("listitem")
    .first();
  await item.getByRole("button", { name: /^Actions for/ }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export as JSONL", exact: true }).click();
  await page
    .getByRole("dialog", { name: /^Export/ })
    .getByRole("button", { name: "Save" })
    .click();
  const download = await downloading;
  const text = await readFile(await download.path(), "utf8");
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await openPlayground(other);
  await other.getByLabel("Import a session file").setInputFiles({
    name: download.suggestedFilename(),
    mimeType: "application/json",
    buffer: Buffer.from(text),
  });
  // The import opens its session when stored: a view chosen before then belongs to the page's first session.
  await expect(
    other.getByRole("region", { name: "Sessions" }).getByRole("button", { name: /^what is 2 \+ 3\?/ }),
  ).toHaveAttribute("aria-current", "true");
  const imported = await openReplay(other);
  await expect(imported.getByRole("article", { name: /^Replay: / })).toHaveCount(2);
  await expect(
    imported.getByRole("article", { name: "Replay: unchanged" }).getByLabel("Divergence"),
  ).toHaveText("No divergence: every call's model view is the same as the recorded one.");
  await expect(
    imported.getByRole("article", { name: "Replay: notification as user text" }).getByLabel("Divergence"),
  ).toHaveText("First divergence: call 3.");
  await fresh.close();
});

test("a replay that stops on a tool call the recording has no result for says so in the chat, which leads to its question", async ({
  page,
}) => {
  await openPlayground(page);
  // Recorded with calculate switched off: Mirror was asked to call it and could not.
  await page.getByRole("button", { name: "Tools" }).click();
  const tools = page.getByRole("dialog", { name: "Tools" });
  await tools.getByRole("checkbox", { name: "calculate offered to the model" }).uncheck();
  await tools.getByRole("button", { name: "Close" }).click();
  await sendMessage(page, 'call calculate with {"expression": "6 * 7"}');
  await expect(lastReply(page)).not.toContainText("calculate returned");

  // Replayed with calculate offered: Mirror calls it, and the recording has no result for it.
  const view = await openReplay(page);
  const form = view.getByRole("form", { name: "Replay from a fact" });
  await form
    .getByRole("group", { name: "Tools offered" })
    .getByRole("checkbox", { name: "calculate" })
    .check();
  await form.getByRole("button", { name: "Replay" }).click();
  await expect(view.getByRole("group", { name: "Tool call without a recorded result" })).toBeVisible({
    timeout: 30_000,
  });
  // The person is looking elsewhere in the inspector: the chat says what waits, naming the tool.
  await page.getByRole("tab", { name: "Facts and model view" }).click();
  const notice = page.getByRole("region", { name: "The replay waits for you" });
  await expect(notice).toContainText("It called calculate with");
  await expect(notice).toContainText('{"expression":"6 * 7"}');
  await expectAccessible(page, "a replay waiting on a tool call without a recorded result");

  // It leads to the question: the replay view, the cursor in the result to type.
  await notice.getByRole("button", { name: "Answer in the replay" }).click();
  const result = view.getByRole("textbox", { name: "Result to give the model" });
  await expect(result).toBeFocused();
  await result.fill("42");
  await view.getByRole("button", { name: "Use this result" }).click();
  await expect(view.getByRole("region", { name: "Replay in progress" })).toContainText("The replay is over", {
    timeout: 30_000,
  });
  await expect(lastReply(page)).toContainText("calculate returned: 42");
  await expect(notice).toHaveCount(0);
});
