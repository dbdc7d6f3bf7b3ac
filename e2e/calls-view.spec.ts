import type { APIRequestContext, Page } from "@playwright/test";
import { FIXTURE_PORT } from "./ports.ts";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  pickModel,
  rawPayload,
  sendMessage,
  test,
} from "./support.ts";
import { storedCalls } from "./stored-calls.ts";

/** The loopback OpenAI-compatible fixture that playwright.config.ts starts as the local server. */
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}`;

async function fixtureBodies(request: APIRequestContext): Promise<unknown[]> {
  const log = (await (await request.get(`${FIXTURE}/__requests`)).json()) as {
    requests: { body: unknown }[];
  };
  return log.requests.map((received) => received.body);
}

async function openCalls(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
}

const previewPanel = (page: Page) => page.getByRole("article", { name: "Next call preview" });

/** The payload JSON the preview shows. */
async function previewedPayload(page: Page): Promise<unknown> {
  const panel = previewPanel(page);
  await expect(panel).toContainText("nothing reached the provider", { timeout: 15_000 });
  return JSON.parse(await rawPayload(panel)) as unknown;
}

/** The "What the model saw" action of the chat message at this (1-based) position. */
const whatTheModelSaw = (page: Page, message: number) =>
  page
    .getByRole("group", { name: `Actions for message ${message}` })
    .getByRole("button", { name: "What the model saw" });

test("Preview next call shows the very body the provider then receives, and sends it nothing", async ({
  page,
  request,
}) => {
  await request.post(`${FIXTURE}/__reset`);
  await openPlayground(page);
  await pickModel(page, "fixture-tools", /fixture-tools/);
  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("Fixture received 2 messages", { timeout: 15_000 });
  expect(await fixtureBodies(request)).toHaveLength(1);

  // The next message waits in the composer; the preview includes it.
  await page.getByRole("textbox", { name: "Message" }).fill("and now?");
  await openCalls(page);
  await page.getByRole("button", { name: "Preview next call" }).click();
  await expect(previewPanel(page)).toContainText("With the message in the composer: “and now?”.");
  await expect(previewPanel(page)).toContainText("4 messages to local/fixture-tools");
  const previewed = await previewedPayload(page);
  await expectAccessible(page, "calls view, next call previewed");
  // The adapter built the body and was stopped before sending it: the server received nothing more.
  expect(await fixtureBodies(request)).toHaveLength(1);

  await page.getByRole("button", { name: "Send" }).click();
  await expect(lastReply(page)).toContainText("Fixture received 4 messages", { timeout: 15_000 });
  const received = await fixtureBodies(request);
  expect(received).toHaveLength(2);
  expect(previewed).toEqual(received[1]);
  expect(JSON.stringify(previewed)).toContain("and now?");
  // What it showed is no longer the next call.
  await expect(previewPanel(page)).toContainText("changed since this preview");

  // The call it became, its three layers side by side (the tabs follow the arrow keys).
  await page
    .getByRole("listbox", { name: "Recorded calls" })
    .getByRole("option", { name: /^Call #2 / })
    .click();
  const call = page.getByRole("article", { name: "Call 2" });
  await call.getByRole("tab", { name: "Model view as sent" }).focus();
  for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowRight");
  await expect(call.getByRole("tab", { name: "All three side by side" })).toBeFocused();
  await expect(call.getByRole("tab", { name: "All three side by side" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(call.getByRole("region", { name: "Model view as sent" }).getByRole("listitem")).toHaveCount(4);
  await expect(call.getByRole("region", { name: "Provider view" }).getByRole("listitem")).toHaveCount(4);
  await expectAccessible(page, "calls view, three layers side by side");
  const payload = call.getByRole("region", { name: "Provider payload" });
  expect(JSON.parse(await rawPayload(payload))).toEqual(received[1]);
});

test("with an empty composer the preview is the session as it stands, built by a real provider's adapter", async ({
  page,
}) => {
  await openPlayground(page);
  // The server has a (fake) OpenAI key: pi-ai's OpenAI adapter builds the body and is stopped before sending.
  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill("gpt-4o-mini");
  await page
    .getByRole("option", { name: /gpt-4o-mini/ })
    .first()
    .click();
  await openCalls(page);
  await expect(page.getByRole("region", { name: "Calls" })).toContainText("No model call yet.");
  await page.getByRole("button", { name: "Preview next call" }).click();
  await expect(previewPanel(page)).toContainText(
    "The composer is empty, so this is the session as it stands.",
  );
  await expect(previewPanel(page)).toContainText(/1 message to openai\/gpt-4o-mini/);
  expect(await previewedPayload(page)).toMatchObject({ model: expect.stringMatching(/^gpt-4o-mini/) });
  await page.getByRole("button", { name: "Close preview" }).click();
  await expect(previewPanel(page)).toHaveCount(0);
});

test("What the model saw opens the call that produced a reply, from the keyboard, after a reload too", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "first question");
  await expect(lastReply(page)).toContainText("first question", { timeout: 15_000 });
  await sendMessage(page, "second question");
  await expect(lastReply(page)).toContainText("second question", { timeout: 15_000 });

  for (const reload of [false, true]) {
    if (reload) {
      await page.reload();
      await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    }
    // Message 3 is the first reply (after the system prompt and the first question), message 5 the second.
    for (const [message, call] of [
      [3, 1],
      [5, 2],
    ] as const) {
      const action = whatTheModelSaw(page, message);
      await action.focus();
      await page.keyboard.press("Enter");
      const list = page.getByRole("listbox", { name: "Recorded calls" });
      await expect(list).toBeFocused();
      await expect(page.getByRole("tab", { name: "Calls" })).toHaveAttribute("aria-selected", "true");
      await expect(list.getByRole("option", { selected: true })).toHaveAccessibleName(
        new RegExp(`^Call #${call} mirror/`),
      );
      await expect(page.getByRole("article", { name: `Call ${call}` })).toBeVisible();
      // The call's model view as sent ends with the question that reply answered.
      await expect(
        page
          .getByRole("article", { name: `Call ${call}` })
          .getByRole("listitem")
          .last(),
      ).toContainText(message === 3 ? "first question" : "second question");
    }
  }
  await expectAccessible(page, "calls view, a reply's call open");
});

test("an old session without call records says its calls were not recorded then", async ({ page }) => {
  await openPlayground(page);
  const old = [
    { role: "system", content: "An old prompt.", timestamp: 1_700_000_000_000 },
    { role: "user", content: [{ type: "text", text: "old question" }], timestamp: 1_700_000_001_000 },
    {
      role: "assistant",
      content: [{ type: "text", text: "old answer" }],
      api: "openai-completions",
      provider: "openai",
      model: "gpt-4o-mini",
      usage: {
        input: 10,
        output: 2,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 12,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: 1_700_000_002_000,
    },
  ];
  await page.getByLabel("Import a session file").setInputFiles({
    name: "old.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(old)),
  });
  await expect(lastReply(page)).toContainText("old answer");

  await whatTheModelSaw(page, 3).click();
  const calls = page.getByRole("region", { name: "Calls" });
  await expect(calls).toContainText(
    "This session's 1 model reply was made before calls were recorded, so its call was not kept. New calls will be.",
  );
  await expect(calls.getByRole("status")).toHaveText(
    "This reply was made before calls were recorded, so what the model saw for it was not kept.",
  );
  await expectAccessible(page, "calls view, an old session");

  // New calls are recorded; the old reply stays explained.
  await sendMessage(page, "a new question");
  await expect(lastReply(page)).toContainText("a new question", { timeout: 15_000 });
  await expect(calls).toContainText(
    "1 earlier model reply was made before calls were recorded; only the calls since are kept.",
  );
  await expect(calls.getByRole("listbox", { name: "Recorded calls" }).getByRole("option")).toHaveCount(1);
});

/**
 * Copies of the session's first recorded call as its calls #2 to #`count` (made by no reply), written
 * straight to IndexedDB with the session's next call number, as a long session has them.
 */
async function plantCopiesOfFirstCall(page: Page, count: number): Promise<void> {
  await page.evaluate(async (total) => {
    const sessionId = localStorage.getItem("pi-playground:current-session") ?? "";
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const done = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const tx = db.transaction(["sessions", "calls", "callBodies"], "readwrite");
    const first = (await done(tx.objectStore("calls").get([sessionId, 0]))) as Record<string, unknown>;
    const body = (await done(tx.objectStore("callBodies").get([sessionId, 0]))) as Record<string, unknown>;
    const meta = (await done(tx.objectStore("sessions").get(sessionId))) as Record<string, unknown>;
    for (let seq = 1; seq < total; seq++) {
      const { replyEntryId: _reply, ...copy } = first;
      tx.objectStore("calls").put({ ...copy, seq, id: `copy-${seq}` });
      tx.objectStore("callBodies").put({ ...body, seq });
    }
    tx.objectStore("sessions").put({ ...meta, nextCallSeq: total });
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  }, count);
}

test("a session of many calls opens its calls on the latest, and a reply's call far back is found", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "first question");
  await expect(lastReply(page)).toContainText("first question", { timeout: 15_000 });
  await storedCalls(page, 1);
  await plantCopiesOfFirstCall(page, 120);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();

  // The first reply's call is the session's first of 120: read after the latest ones.
  await whatTheModelSaw(page, 3).click();
  const list = page.getByRole("listbox", { name: "Recorded calls" });
  const chosen = list.getByRole("option", { selected: true });
  await expect(chosen).toHaveAccessibleName(/^Call #1 mirror\//);
  await expect(chosen).toHaveAttribute("aria-setsize", "120");
  await expect(page.getByRole("article", { name: "Call 1" })).toContainText("first question");

  // Opened with nothing asked (the inspector stays open across the reload): the latest call, the list at
  // its end.
  await page.reload();
  await page.getByRole("tab", { name: "Calls" }).click();
  await expect(list.getByRole("option", { selected: true })).toHaveAccessibleName(/^Call #120 mirror\//);
  await expect(page.getByRole("article", { name: "Call 120" })).toBeVisible();
  await expect(list.getByRole("option").last()).toHaveAttribute("aria-posinset", "120");
  // Every call is there once read: the search finds the first.
  await page.getByRole("searchbox", { name: "Search calls" }).fill("#1 ");
  await page.keyboard.press("Enter");
  await expect(list.getByRole("option", { selected: true })).toHaveAccessibleName(/^Call #1 mirror\//);
});
