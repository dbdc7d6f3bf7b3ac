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
  /** The text of the reply saved while it streamed, if one is stored. */
  inflightText: string;
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
    const tx = db.transaction(["sessions", "entries", "inflight"], "readonly");
    const range = IDBKeyRange.bound([sessionId, -1], [sessionId, Number.MAX_SAFE_INTEGER]);
    type Entry = { id: string; parentId: string | null; message: { role: string } };
    const records = await new Promise<{ entry: Entry }[]>((resolve) => {
      const request = tx.objectStore("entries").getAll(range);
      request.onsuccess = () => resolve(request.result as { entry: Entry }[]);
    });
    const meta = await new Promise<{ leafId: string | null } | undefined>((resolve) => {
      const request = tx.objectStore("sessions").get(sessionId);
      request.onsuccess = () => resolve(request.result as { leafId: string | null } | undefined);
    });
    const inflightRecord = await new Promise<{ message: { content: { text?: string }[] } } | undefined>(
      (resolve) => {
        const request = tx.objectStore("inflight").get(sessionId);
        request.onsuccess = () =>
          resolve(request.result as { message: { content: { text?: string }[] } } | undefined);
      },
    );
    db.close();
    // The facts are the messages on the path from the root to the session's leaf.
    const byId = new Map(records.map((record) => [record.entry.id, record.entry]));
    const path: Entry[] = [];
    for (let id = meta?.leafId ?? null; id !== null;) {
      const entry = byId.get(id);
      if (!entry) break;
      path.unshift(entry);
      id = entry.parentId;
    }
    const messages = path.map((entry) => entry.message);
    return {
      messages,
      roles: messages.map((message) => message.role),
      messageRecords: records.length,
      inflight: inflightRecord ? 1 : 0,
      inflightText: inflightRecord?.message.content.map((part) => part.text ?? "").join("") ?? "",
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
