import { test as base, expect, type Page } from "@playwright/test";

interface Fixtures {
  /** Console errors this test expects (matched as substrings); any other console error fails the test. */
  allowConsoleErrors: string[];
  consoleErrors: string[];
}

/**
 * Every journey fails on any console error it did not announce. Each test starts from an empty browser
 * profile (Playwright's default), so IndexedDB holds only what the test itself creates.
 */
export const test = base.extend<Fixtures>({
  allowConsoleErrors: [[], { option: true }],
  consoleErrors: async ({ page, allowConsoleErrors }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if (!allowConsoleErrors.some((allowed) => text.includes(allowed))) errors.push(text);
    });
    page.on("pageerror", (error) => errors.push(`Uncaught: ${error.message}`));
    await use(errors);
    expect(errors, "console errors during the test").toEqual([]);
  },
  page: async ({ page }, use) => {
    await use(page);
  },
});

test.beforeEach(({ consoleErrors }) => {
  // Requesting the fixture installs the console listener for every test.
  void consoleErrors;
});

export { expect };

/** Open the playground and wait until a session is ready to take a message. */
export async function openPlayground(page: Page, path = "/"): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
}

export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Choose a model in the picker by searching for it. */
export async function pickModel(page: Page, search: string, option: RegExp): Promise<void> {
  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill(search);
  await page.getByRole("option", { name: option }).click();
  await expect(page.getByRole("button", { name: /^Model:/ })).toContainText(search);
}

/** The last assistant reply that has finished streaming. */
export function lastReply(page: Page) {
  return page.getByRole("article", { name: "Assistant reply", exact: true }).last();
}

export interface StoredSession {
  /** The stored facts, in order, as plain JSON. */
  messages: unknown[];
  roles: string[];
  messageRecords: number;
  inflight: number;
}

/** Read the current session's records straight from IndexedDB, as a test of what is really stored. */
export async function readStoredSession(page: Page): Promise<StoredSession> {
  return page.evaluate(async () => {
    const sessionId = localStorage.getItem("pi-playground:current-session") ?? "";
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(["messages", "inflight"], "readonly");
    const range = IDBKeyRange.bound([sessionId, -1], [sessionId, Number.MAX_SAFE_INTEGER]);
    const records = await new Promise<{ message: { role: string } }[]>((resolve) => {
      const request = tx.objectStore("messages").getAll(range);
      request.onsuccess = () => resolve(request.result as { message: { role: string } }[]);
    });
    const inflight = await new Promise<number>((resolve) => {
      const request = tx.objectStore("inflight").count(sessionId);
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    const messages = records.map((record) => record.message);
    return {
      messages,
      roles: messages.map((message) => message.role),
      messageRecords: records.length,
      inflight,
    };
  });
}

/** The current session's stored facts, in order. */
export async function readStoredFacts(page: Page): Promise<unknown[]> {
  return (await readStoredSession(page)).messages;
}

/** The inspector's model view, read from its JSON view (the inspector must be open). */
export async function readModelView(page: Page): Promise<unknown[]> {
  const toggle = page.getByRole("region", { name: "Model view" }).getByRole("button", { name: "JSON" });
  await toggle.click();
  const text = await page.getByLabel("Model view as JSON").textContent();
  await toggle.click();
  return JSON.parse(text ?? "[]") as unknown[];
}
