import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  factRow,
  lastReply,
  openPlayground,
  readStoredFacts,
  sendMessage,
  test,
  recordStreamRequests,
} from "./support.ts";

async function openInject(page: Page) {
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function openInspector(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await expect(page.getByRole("region", { name: "Session facts" })).toBeVisible();
}

const summary = (page: Page) => page.getByLabel("Summary", { exact: true });

test("a notification appended while idle is a fact, not in the model view, and reaches the model only by policy", async ({
  page,
}) => {
  const requests = await recordStreamRequests(page);
  await openPlayground(page);
  await openInspector(page);
  await expect(summary(page)).toHaveText("1 fact → 1 model message");

  const dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill("Build 1234 finished");
  await expect(dialog.getByRole("region", { name: "What the model will see" })).toContainText(
    "Hidden: kept in the facts, never sent",
  );
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(dialog).toBeHidden();

  await expect(summary(page)).toHaveText("2 facts → 1 model message: 1 hidden");
  await expect(factRow(page, 2, "notification", "hidden by policy")).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Notification (info)" })).toContainText(
    "Build 1234 finished",
  );
  expect(requests).toHaveLength(0);

  await sendMessage(page, "anything new?");
  await expect(lastReply(page)).toContainText("I received 2 messages: system, user.", { timeout: 15_000 });
  expect(requests.join("\n")).not.toContain("Build 1234 finished");

  await page.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  await sendMessage(page, "and now?");
  await expect(lastReply(page).locator("blockquote")).toHaveText("and now?", { timeout: 15_000 });
  expect(requests.at(-1)).toContain("[Notification] Build 1234 finished");
});

test("a message held for the next turn is sent after the next prompt", async ({ page }) => {
  const requests = await recordStreamRequests(page);
  await openPlayground(page);
  const dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("custom");
  await dialog.getByLabel("Custom type", { exact: true }).fill("context");
  await dialog.getByLabel("Content", { exact: true }).fill("The user is on the mobile app.");
  await dialog.getByRole("radio", { name: "Next turn" }).check();
  await dialog.getByRole("button", { name: "Inject: next turn" }).click();
  await expect(
    page.getByRole("region", { name: "Queued messages" }).getByRole("group", { name: /^Next turn/ }),
  ).toContainText("The user is on the mobile app.");

  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("I received 3 messages: system, user, user.", {
    timeout: 15_000,
  });
  const sent = JSON.parse(requests.at(-1) ?? "{}") as {
    context: { messages: { role: string; content: { text: string }[] }[] };
  };
  expect(sent.context.messages.map((message) => message.content[0]?.text ?? message.role).slice(1)).toEqual([
    "hello",
    "The user is on the mobile app.",
  ]);
  await expect(page.getByRole("region", { name: "Queued messages" })).toBeHidden();
});

test("invalid input never reaches the session: each problem is named next to its field", async ({ page }) => {
  await openPlayground(page);
  await openInspector(page);
  await expect(summary(page)).toHaveText("1 fact → 1 model message");
  const before = await readStoredFacts(page);
  const dialog = await openInject(page);

  await dialog.getByLabel("Type", { exact: true }).selectOption("bashExecution");
  await dialog.getByLabel("Command", { exact: true }).fill("npm test");
  await dialog.getByLabel("Exit code", { exact: true }).fill("abc");
  await expect(dialog.getByRole("alert")).toHaveText('Exit code must be a whole number, not "abc".');
  await expect(dialog.getByRole("button", { name: /^Inject:/ })).toBeDisabled();

  await dialog.getByLabel("Type", { exact: true }).selectOption("custom");
  await dialog.getByLabel("Custom type", { exact: true }).fill("k");
  await dialog.getByLabel("Content", { exact: true }).fill("c");
  await dialog.getByLabel("Details (JSON)", { exact: true }).fill("{not json");
  await expect(dialog.getByRole("alert")).toContainText("Details is not valid JSON:");
  await expect(dialog.getByRole("button", { name: /^Inject:/ })).toBeDisabled();

  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill("x");
  await dialog.getByLabel("Text", { exact: true }).fill("");
  await expect(dialog.getByRole("alert")).toHaveText("Text is required.");
  await expect(dialog.getByRole("button", { name: /^Inject:/ })).toBeDisabled();

  await dialog.getByRole("tab", { name: "JSON" }).click();
  const json = dialog.getByLabel("Whole message as JSON", { exact: true });
  await json.fill('{"role": "notification", "text": ');
  await expect(dialog.getByRole("alert")).toContainText("Not valid JSON:");
  await json.fill(
    '{"role": "bashExecution", "command": "ls", "output": "", "exitCode": "abc", "cancelled": false, "truncated": false}',
  );
  await expect(dialog.getByRole("alert")).toHaveText("exitCode must be a number or left empty.");
  await json.fill('{"role": "wizard"}');
  await expect(dialog.getByRole("alert")).toContainText('Unknown role "wizard"');
  await expect(dialog.getByRole("button", { name: /^Inject:/ })).toBeDisabled();

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(summary(page)).toHaveText("1 fact → 1 model message");
  expect(await readStoredFacts(page)).toEqual(before);
});

test("a hand-made approval request is decided on its card, persisted, and stays hidden from the model", async ({
  page,
}) => {
  await openPlayground(page);
  await openInspector(page);
  const dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("approval_request");
  await dialog.getByLabel("Action", { exact: true }).fill("Deploy to production");
  await dialog.getByLabel("Refers to", { exact: true }).fill("release 2.4.0");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();

  const card = page.getByRole("region", { name: "Approval request: Deploy to production" });
  await expect(card).toHaveAttribute("data-status", "pending");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card).toHaveAttribute("data-status", "approved");
  await expect(card).toContainText("decided");
  await expect(factRow(page, 2, "approval_request", "hidden by policy")).toBeVisible();
  await factRow(page, 2).click();
  await expect(page.getByLabel("Fact JSON")).toContainText('"status": "approved"');

  await page.reload();
  await expect(page.getByRole("region", { name: "Approval request: Deploy to production" })).toHaveAttribute(
    "data-status",
    "approved",
  );
});

test("a ! line records a bash execution, and !! keeps it out of the model's context", async ({ page }) => {
  await openPlayground(page);
  await openInspector(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("!npm test");
  await page.getByRole("textbox", { name: "Output" }).fill("1 failing");
  await page.getByRole("textbox", { name: "Exit code" }).fill("1");
  await page.getByRole("button", { name: "Record command" }).click();
  await box.fill("!!cat .env");
  await page.getByRole("textbox", { name: "Output" }).fill("TOKEN=secret");
  await page.getByRole("button", { name: "Record command" }).click();

  const facts = page.getByRole("region", { name: "Session facts" });
  await expect(factRow(facts, 2, "bashExecution", "not yet sent (→ user)")).toBeVisible();
  await expect(factRow(facts, 3, "bashExecution", "excluded (!!)")).toBeVisible();
  await expect(page.getByRole("region", { name: "Bash: npm test" })).toContainText("exit 1");
});

test("append and run a turn: the injected message is stored and the model is called with it", async ({
  page,
}) => {
  const requests = await recordStreamRequests(page);
  await openPlayground(page);
  const dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("custom");
  await dialog.getByLabel("Custom type", { exact: true }).fill("ci-result");
  await dialog.getByLabel("Content", { exact: true }).fill("CI failed on main: 3 tests.");
  await dialog.getByRole("radio", { name: "Append and run a turn" }).check();
  await dialog.getByRole("button", { name: "Inject: append and run a turn" }).click();

  await expect(lastReply(page)).toContainText("I received 2 messages: system, user.", { timeout: 15_000 });
  expect(requests).toHaveLength(1);
  expect(requests[0]).toContain("CI failed on main: 3 tests.");
  await expect(page.getByRole("region", { name: "Custom message ci-result" })).toContainText(
    "CI failed on main",
  );
});

test("a message injected during a run is steered into it through the Agent's queue", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "Save a note: steer demo");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });

  const dialog = await openInject(page);
  await expect(dialog.getByRole("group", { name: /Delivery \(a run is active\)/ })).toBeVisible();
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill("Deploy window closes in 5 minutes");
  await dialog.getByRole("button", { name: "Inject: steer" }).click();
  await expect(
    page.getByRole("region", { name: "Queued messages" }).getByRole("group", { name: /^Steering/ }),
  ).toContainText("Deploy window closes in 5 minutes");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("region", { name: "Queued messages" })).toBeHidden();
  await expect(page.getByRole("complementary", { name: "Notification (info)" })).toContainText(
    "Deploy window closes in 5 minutes",
  );
});

test("Form and JSON are one draft: what either tab shows is what is injected, and the type follows the JSON", async ({
  page,
}) => {
  await openPlayground(page);
  const dialog = await openInject(page);
  const type = dialog.getByLabel("Type", { exact: true });
  const json = dialog.getByLabel("Whole message as JSON", { exact: true });
  await dialog.getByLabel("Text", { exact: true }).fill("from the form");
  await dialog.getByRole("tab", { name: "JSON" }).click();
  expect(JSON.parse(await json.inputValue())).toEqual({
    role: "notification",
    text: "from the form",
    level: "info",
  });

  // Edited in JSON, then injected from the Form tab: the JSON's edit is what goes in.
  await json.fill(JSON.stringify({ role: "notification", text: "from the JSON", level: "warning" }));
  await dialog.getByRole("tab", { name: "Form" }).click();
  await expect(dialog.getByLabel("Text", { exact: true })).toHaveValue("from the JSON");
  await expect(dialog.getByLabel("Level", { exact: true })).toHaveValue("warning");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(page.getByRole("complementary", { name: "Notification (warning)" })).toContainText(
    "from the JSON",
  );

  // The type follows the JSON's role; a JSON the form cannot show is said so, never replaced by the form.
  await openInject(page);
  await dialog.getByRole("tab", { name: "JSON" }).click();
  await json.fill(JSON.stringify({ role: "user", content: [{ type: "text", text: "typed as JSON" }] }));
  await expect(type).toHaveValue("user");
  await json.fill(
    JSON.stringify({
      role: "user",
      content: [
        { type: "text", text: "with a picture" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
    }),
  );
  await expect(type).toBeDisabled();
  await dialog.getByRole("tab", { name: "Form" }).click();
  await expect(dialog.getByRole("status")).toContainText(
    'The form cannot show the message in the JSON tab: it would change "content".',
  );
  await expect(dialog.getByLabel("Text", { exact: true })).toBeHidden();
  await dialog.getByRole("button", { name: "Discard the JSON edits and use the form" }).click();
  await expect(type).toBeEnabled();
  await expect(dialog.getByLabel("Text", { exact: true })).toHaveValue("typed as JSON");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["typed as JSON"]);
});

test("the injection draft is kept when the dialog closes and when the page reloads", async ({ page }) => {
  await openPlayground(page);
  let dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("custom");
  await dialog.getByLabel("Custom type", { exact: true }).fill("calendar-context");
  await dialog.getByLabel("Content", { exact: true }).fill("Meeting at 3pm");
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.reload();
  dialog = await openInject(page);
  await expect(dialog.getByLabel("Type", { exact: true })).toHaveValue("custom");
  await expect(dialog.getByLabel("Custom type", { exact: true })).toHaveValue("calendar-context");
  await expect(dialog.getByLabel("Content", { exact: true })).toHaveValue("Meeting at 3pm");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  // Injected: the next one starts empty, of the same type.
  await openInject(page);
  await expect(dialog.getByLabel("Type", { exact: true })).toHaveValue("custom");
  await expect(dialog.getByLabel("Content", { exact: true })).toHaveValue("");
});

test("a delivery chosen during a run is not changed when the run ends: the dialog asks again", async ({
  page,
}) => {
  const requests = await recordStreamRequests(page);
  await openPlayground(page);
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  await sendMessage(page, `quote this slowly: ${"word ".repeat(120)}`);
  await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toBeVisible();
  const dialog = await openInject(page);
  await dialog.getByLabel("Text", { exact: true }).fill("Build finished");
  await dialog.getByRole("radio", { name: "Follow-up" }).check();
  await expect(dialog.getByRole("button", { name: "Inject: follow-up" })).toBeEnabled();

  // The run ends while the dialog is open: Follow-up no longer applies, and nothing takes its place.
  await expect(dialog.getByRole("alert")).toHaveText(
    "Follow-up is for a run, and the run has ended. Choose how to deliver it now.",
    { timeout: 30_000 },
  );
  await expect(dialog.getByRole("button", { name: "Inject: choose a delivery" })).toBeDisabled();
  for (const radio of await dialog.getByRole("radio").all()) await expect(radio).not.toBeChecked();
  await dialog.getByRole("radio", { name: "Append now" }).check();
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(page.getByRole("complementary", { name: "Notification (info)" })).toContainText(
    "Build finished",
  );
  expect(requests).toHaveLength(1);
});

test("axe-core finds nothing serious in the injection dialog with a field error", async ({ page }) => {
  await openPlayground(page);
  const dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("bashExecution");
  await dialog.getByLabel("Command", { exact: true }).fill("npm test");
  await dialog.getByLabel("Exit code", { exact: true }).fill("abc");
  await expect(dialog.getByRole("alert")).toHaveText('Exit code must be a whole number, not "abc".');
  await expectAccessible(page, "injection dialog with a field error");
  await dialog.getByRole("tab", { name: "JSON" }).click();
  await dialog.getByLabel("Whole message as JSON", { exact: true }).fill("{");
  await expect(dialog.getByRole("alert")).toContainText("Not valid JSON");
  await dialog.getByRole("tab", { name: "Form" }).click();
  await expect(dialog.getByRole("status")).toContainText(
    "The form cannot show the message in the JSON tab: it is not valid JSON yet.",
  );
  await expectAccessible(page, "injection dialog with JSON the form cannot show");
});

test("the inject dialog opens in its first field, not on Clear: an early Enter keeps the draft", async ({
  page,
}) => {
  await openPlayground(page);
  let dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill("Keep this draft");
  await dialog.getByRole("button", { name: "Close" }).click();

  dialog = await openInject(page);
  await expect(dialog.getByRole("button", { name: /^Clear/ })).not.toBeFocused();
  await expect(dialog.getByLabel("Text", { exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Text", { exact: true })).toHaveValue(/Keep this draft/);
  await expectAccessible(page, "inject dialog, opened on its first field");
});

test("Append and run a turn is not offered for a message the policy hides: it would call the model with nothing new", async ({
  page,
}) => {
  const requests = await recordStreamRequests(page);
  await openPlayground(page);
  const dialog = await openInject(page);
  await dialog.getByLabel("Type", { exact: true }).selectOption("notification");
  await dialog.getByLabel("Text", { exact: true }).fill("Deploy finished");
  await expect(dialog.getByRole("region", { name: "What the model will see" })).toContainText("Hidden");
  const run = dialog.getByRole("radio", { name: "Append and run a turn" });
  await expect(run).toBeDisabled();
  await expect(dialog).toContainText("Append and run a turn: Not offered for this message");
  await expect(dialog).not.toContainText("the model is called with it");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(0);
  expect(requests).toHaveLength(0);
});
