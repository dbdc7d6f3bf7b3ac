import { FIXTURE_PORT } from "./ports.ts";
import { readStoredCalls } from "./stored-calls.ts";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  pickModel,
  sendMessage,
  test,
} from "./support.ts";

/** The loopback OpenAI-compatible fixture that playwright.config.ts starts as the local server. */
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}`;

test("a recorded call re-run with a changed system prompt: the server gets the same payload but for the prompt, both outputs side by side with their diff, kept after a reload", async ({
  page,
  request,
}) => {
  // Two calls, two axe runs and a reload: more than the default minute on a busy machine.
  test.slow();
  await request.post(`${FIXTURE}/__reset`);
  await openPlayground(page);
  await pickModel(page, "fixture-tools", /^fixture-tools /);
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("Fixture received 2 messages (system, user).");

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  const original = page.getByRole("article", { name: "Call 1" });
  await original.getByRole("button", { name: "Re-run with changes" }).click();
  const draft = page.getByRole("form", { name: "Re-run with changes" });
  // Every part is seeded from the call; a bad one is refused with its reason.
  await expect(draft.getByRole("textbox", { name: "Model (provider/id)" })).toHaveValue(/\/fixture-tools$/);
  await draft.getByRole("textbox", { name: "Temperature" }).fill("9");
  await draft.getByRole("button", { name: "Run variant" }).click();
  await expect(draft).toContainText("Temperature must be between 0 and 2.");
  await expect(draft.getByRole("textbox", { name: "Temperature" })).toBeFocused();
  await draft.getByRole("textbox", { name: "Temperature" }).fill("");
  await draft.getByRole("textbox", { name: "System prompt" }).fill("Reply: The sky is grey today.");
  await expectAccessible(page, "a call's re-run draft");
  await draft.getByRole("button", { name: "Run variant" }).click();

  const variant = page.getByRole("article", { name: "Call 2" });
  await expect(variant).toContainText("Variant of call #1, re-run with changes.");
  const compare = variant.getByRole("region", { name: "Variant beside its original" });
  await expect(compare.getByRole("region", { name: "Original · call #1" })).toContainText(
    "Fixture received 2 messages (system, user).",
  );
  await expect(compare.getByRole("region", { name: "Variant · call #2" })).toContainText(
    "The sky is grey today.",
  );
  const outputDiff = compare.getByLabel("Output diff");
  await expect(outputDiff.locator("del")).toContainText(["Fixture"]);
  await expect(outputDiff.locator("ins").first()).toBeVisible();
  await expect(compare.getByLabel("Payload diff").locator("ins")).toContainText([
    "Reply: The sky is grey today.",
  ]);
  await expectAccessible(page, "a variant beside its original");

  // The server received the original payload with only the system prompt changed.
  const log = (await (await request.get(`${FIXTURE}/__requests`)).json()) as {
    requests: { body: { messages: { role: string; content: unknown }[] } }[];
  };
  const [first, second] = log.requests.map((received) => received.body);
  expect(log.requests).toHaveLength(2);
  const expected = structuredClone(first);
  if (!expected?.messages[0]) throw new Error("no system message sent");
  expected.messages[0].content = "Reply: The sky is grey today.";
  expect(second).toEqual(expected);
  // The session's facts did not change: the chat still has one reply.
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(1);

  await page.reload();
  const stored = await readStoredCalls(page);
  expect(stored.map((call) => (call as { variantOf?: string }).variantOf)).toEqual([
    undefined,
    stored[0]?.id,
  ]);
  // The inspector stays open across the reload when it was open before.
  const inspector = page.getByRole("button", { name: "Inspector", exact: true });
  if ((await inspector.getAttribute("aria-pressed")) !== "true") await inspector.click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await expect(page.getByRole("article", { name: "Call 2" })).toContainText("Variant of call #1");
  await expect(
    page.getByRole("region", { name: "Variant beside its original" }).getByLabel("Output diff"),
  ).toBeVisible();
});

test("Re-run with changes on a reply opens the draft of the call that produced it, beside the call, and runs it", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("hello");
  await page
    .getByRole("group", { name: "Actions for message 3" })
    .getByRole("button", { name: "Re-run with changes" })
    .click();
  const draft = page.getByRole("form", { name: "Re-run with changes" });
  await expect(draft).toBeVisible();
  await expect(draft).toContainText("Seeded from call #1");
  await expect(draft.getByRole("textbox", { name: "Model (provider/id)" })).toHaveValue("mirror/mirror");
  await draft.getByRole("textbox", { name: "System prompt" }).fill("Be brief.");
  await expectAccessible(page, "a re-run draft opened from a reply");
  await draft.getByRole("button", { name: "Run variant" }).click();
  await expect(page.getByRole("article", { name: "Call 2" })).toContainText(
    "Variant of call #1, re-run with changes.",
  );
});
