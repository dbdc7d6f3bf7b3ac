import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNoHorizontalOverflow,
  factRow,
  lastReply,
  openPlayground,
  rawPayload,
  readStoredFacts,
  sendMessage,
  test,
  recordStreamRequests,
} from "./support.ts";

interface SentRequest {
  context: { messages: { role: string; content: string | { type: string; text?: string }[] }[] };
  options: { metadata?: Record<string, unknown> };
}

const textOf = (message: SentRequest["context"]["messages"][number]) =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((part) => part.text ?? "").join("");

const pauseSwitch = (page: Page) => page.getByRole("switch", { name: "Pause before each model call" });
const heldCall = (page: Page, number: number) =>
  page.getByRole("region", { name: `Paused before model call ${number}` });

test("with pausing on, a steer injected while the call is held is delivered as the view says", async ({
  page,
}) => {
  const requests = await recordStreamRequests(page, (text) => JSON.parse(text || "{}") as SentRequest);
  await openPlayground(page);
  await pauseSwitch(page).check();
  await sendMessage(page, "hello");

  const held = heldCall(page, 1);
  await expect(held).toBeVisible();
  await expect(held.getByRole("status")).toContainText("Nothing has left the page.");
  const request = held.getByRole("list", { name: "Messages of the held call" });
  await expect(request.getByRole("listitem")).toHaveCount(2);
  await expect(request.getByRole("listitem").last()).toContainText("hello");

  // A steer through the injection dialog: the dialog says where it lands before it is sent.
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await expect(dialog.getByRole("group", { name: "Delivery (a model call is paused)" })).toBeVisible();
  await dialog.getByLabel("Type", { exact: true }).selectOption("user");
  await dialog.getByLabel("Text", { exact: true }).fill("Also mention bananas");
  await dialog.getByRole("radio", { name: "Steer" }).check();
  await expect(dialog.getByText("Queued; it joins the held call when you continue.")).toBeVisible();
  await dialog.getByRole("button", { name: "Inject: steer" }).click();
  await expect(dialog).toBeHidden();

  // A follow-up from the composer, for contrast.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("and a follow-up");
  await page.getByRole("button", { name: "Follow-up", exact: true }).click();

  // The view: the steer joins this call, the follow-up waits for the stop.
  await expect(request.getByRole("listitem")).toHaveCount(3);
  await expect(request.getByRole("listitem").last()).toContainText("Also mention bananas");
  await expect(request.getByRole("listitem").last()).toContainText("steered in: joins this call");
  const queues = page.getByRole("region", { name: "Queued messages" });
  await expect(queues.getByRole("group", { name: /^Steering/ }).getByRole("listitem")).toContainText(
    "joins the held call when you continue",
  );
  await expect(queues.getByRole("group", { name: /^Follow-up/ }).getByRole("listitem")).toContainText(
    "goes when the agent would otherwise stop",
  );
  await expectAccessible(page, "pause view with a steer and a follow-up queued");
  expect(requests).toHaveLength(0);

  await held.getByRole("button", { name: "Continue" }).click();
  // Delivered as the view said: in this call, right after the prompt.
  await expect(lastReply(page)).toContainText("I received 3 messages: system, user, user.", {
    timeout: 15_000,
  });
  await expect(lastReply(page).locator("blockquote")).toHaveText("Also mention bananas");
  expect(requests).toHaveLength(1);
  expect(requests[0]?.context.messages.map(textOf).slice(1)).toEqual(["hello", "Also mention bananas"]);

  // The follow-up went when the agent would have stopped: into the next call, which is held in turn.
  const next = heldCall(page, 2);
  await expect(next).toBeVisible({ timeout: 15_000 });
  await expect(next.getByRole("list").getByRole("listitem").last()).toContainText("and a follow-up");
  expect(requests).toHaveLength(1);
  await next.getByRole("button", { name: "Continue" }).click();
  await expect(lastReply(page).locator("blockquote")).toHaveText("and a follow-up", { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  expect(requests).toHaveLength(2);
  const roles = ((await readStoredFacts(page)) as { role: string }[]).map((fact) => fact.role);
  expect(roles).toEqual(["system", "user", "user", "assistant", "user", "assistant"]);
});

test("Cancel ends a held call's run cleanly: the call is never sent", async ({ page }) => {
  const requests = await recordStreamRequests(page, (text) => JSON.parse(text || "{}") as SentRequest);
  await openPlayground(page);
  await pauseSwitch(page).check();
  await sendMessage(page, "never sent");
  const held = heldCall(page, 1);
  await held.getByRole("button", { name: "Cancel call" }).click();

  await expect(held).toBeHidden();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "aborted");
  await expect(lastReply(page)).toContainText("Cancelled before it was sent");
  expect(requests).toHaveLength(0);

  // Escape cancels too, as it stops any run.
  await sendMessage(page, "also never sent");
  await expect(heldCall(page, 2)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(heldCall(page, 2)).toBeHidden();
  expect(requests).toHaveLength(0);
});

test("the Mirror speed travels with each request and paces the reply", async ({ page }) => {
  const requests = await recordStreamRequests(page, (text) => JSON.parse(text || "{}") as SentRequest);
  await openPlayground(page);
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("2");
  await sendMessage(page, "slowly, please");
  const streaming = page.getByRole("article", { name: "Assistant reply (streaming)" });
  await expect(streaming).toContainText("I received");
  expect(requests[0]?.options.metadata).toMatchObject({ mirrorTokensPerSecond: 2 });
  // Two tokens (eight characters) a second: the reply is still far from its end when a steer goes in.
  await page.getByRole("textbox", { name: "Message" }).fill("steered by hand");
  await page.getByRole("button", { name: "Steer", exact: true }).click();
  await expect(streaming).not.toContainText("slowly, please");
  await expect(
    page.getByRole("region", { name: "Queued messages" }).getByRole("group", { name: /^Steering/ }),
  ).toContainText("goes with the next model call");
  await page.getByRole("button", { name: "Stop" }).click();

  // Remembered: a new page streams at the same speed.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Mirror speed" })).toHaveValue("2");
});

test("the Mirror speed does not reset the simulated prompt cache: the next reply reads the session's prefix from it", async ({
  page,
}) => {
  await openPlayground(page);
  const speed = page.getByRole("combobox", { name: "Mirror speed" });
  await speed.selectOption("300");
  await sendMessage(page, "first, fast");
  await expect(lastReply(page)).toContainText("cache write");
  await expect(lastReply(page)).not.toContainText("cached");
  // Another pace for the next call: its prompt begins with the first call's, so that much is read from the cache.
  await speed.selectOption("75");
  await sendMessage(page, "second, slower");
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(2);
  await expect(lastReply(page)).toContainText(/cached \d/);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the pause view and the new controls fit the screen", async ({ page }) => {
    await openPlayground(page);
    await expectNoHorizontalOverflow(page, "composer with the pause switch and Mirror speed");
    await pauseSwitch(page).check();
    await sendMessage(page, "a question from a phone");
    const held = heldCall(page, 1);
    await expect(held).toBeVisible();
    await page.getByRole("textbox", { name: "Message" }).fill("a steer with a rather long text to wrap");
    await page.getByRole("button", { name: "Steer", exact: true }).click();
    await expect(held.getByRole("list").getByRole("listitem")).toHaveCount(3);
    await expectNoHorizontalOverflow(page, "held call with a steer");
    for (const name of ["Continue", "Cancel call"]) {
      const box = await held.getByRole("button", { name }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, `${name} inside the screen`).toBe(true);
    }
    await expectAccessible(page, "pause view on a phone");
    await held.getByRole("button", { name: "Continue" }).click();
    await expect(lastReply(page).locator("blockquote")).toHaveText(
      "a steer with a rather long text to wrap",
      {
        timeout: 15_000,
      },
    );
  });
});

/** Send one message with pausing on and cancel its call: the session ends in an aborted reply, never sent. */
async function cancelPausedCall(page: Page): Promise<void> {
  await openPlayground(page);
  await pauseSwitch(page).check();
  await sendMessage(page, "never sent");
  await heldCall(page, 1).getByRole("button", { name: "Cancel call" }).click();
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "aborted");
}

test("the inspector does not contradict itself on a cancelled paused call: fact and model message both say it never reaches the model", async ({
  page,
}) => {
  await cancelPausedCall(page);
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await factRow(page, 3, "assistant", "dropped: aborted").click();
  const detail = page.getByRole("region", { name: "Selected fact" });
  await expect(detail).toContainText("Does not reach the model");
  await expect(detail).toContainText("dropped: aborted");
  await expect(detail).not.toContainText("Sent as-is");
  await expectAccessible(page, "a cancelled call's fact selected");
});

test("What the model saw on a call cancelled before sending says it was never sent, not that it predates recording", async ({
  page,
}) => {
  await cancelPausedCall(page);
  await page
    .getByRole("group", { name: "Actions for message 3" })
    .getByRole("button", { name: "What the model saw" })
    .click();
  const calls = page.getByRole("region", { name: "Calls" });
  await expect(calls.getByRole("status")).toContainText("cancelled while it was paused, before it was sent");
  await expect(calls).not.toContainText("before calls were recorded");
});

test("Preview next call counts the messages its payload holds, not the model view's (an aborted reply dropped)", async ({
  page,
}) => {
  await cancelPausedCall(page);
  await page.getByRole("textbox", { name: "Message" }).fill("and now?");
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await page.getByRole("button", { name: "Preview next call" }).click();
  const panel = page.getByRole("article", { name: "Next call preview" });
  await expect(panel).toContainText("nothing reached the provider", { timeout: 15_000 });
  const payload = JSON.parse(await rawPayload(panel)) as { messages: unknown[] };
  // system, "never sent", "and now?": the aborted reply is in the model view, never in a request.
  expect(payload.messages).toHaveLength(3);
  await expect(panel).toContainText("4 model messages → 3 provider messages: 1 dropped; to mirror/mirror");
});
