import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test as base, expect, type Locator, type Page } from "@playwright/test";

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
    type Entry = { id: string; parentId: string | null; message?: { role: string } };
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
    // Entries of other kinds on the path (a compaction, a label, a model change) are not facts.
    const messages = path.flatMap((entry) => (entry.message ? [entry.message] : []));
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

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Run axe-core on the page as it is now and fail on any serious or critical violation. axe is evaluated
 * over the debugging protocol, so the page's Content-Security-Policy stays on.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  // A control fading in (the message actions under the pointer) has a blended colour until its transition
  // ends: judge the state the reader sees, not a frame of the fade. Endless animations (a spinner) are left.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
    };
    const results = await axe.run(document, { resultTypes: ["violations"] });
    return results.violations;
  });
  const serious = violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .slice(0, 5)
          .map((node) => `  ${JSON.stringify(node.target)} ${node.failureSummary ?? ""}`)
          .join("\n"),
    );
  expect(serious, `axe-core in "${state}"`).toEqual([]);
}

/**
 * The exact text of a payload view (the provider payload, the next call's payload): shown as a tree at first,
 * its Raw mode shows the text as captured, the text Copy payload copies.
 */
export async function rawPayload(container: Locator): Promise<string> {
  await container.getByRole("button", { name: "Raw", exact: true }).click();
  return (await container.locator("pre").first().textContent()) ?? "";
}

/** The page is no wider than the viewport: nothing makes it scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page, step: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `horizontal overflow at "${step}"`).toBeLessThanOrEqual(innerWidth);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A row of the inspector's facts list, named "Fact 3: notification, hidden by policy. <preview>". */
export function factRow(
  scope: Page | Locator,
  number: number,
  role?: string,
  fate?: string | RegExp,
): Locator {
  const fatePattern = fate === undefined ? ".*" : typeof fate === "string" ? escapeRegExp(fate) : fate.source;
  const rolePattern = role === undefined ? "[^,]+" : escapeRegExp(role);
  return scope
    .getByRole("listbox", { name: "Facts" })
    .getByRole("option", { name: new RegExp(`^Fact ${number}: ${rolePattern}, (${fatePattern})\\. `) });
}

/** A row of the inspector's model view, named "Model message 2: user, from fact 2. <preview>". */
export function modelRow(scope: Page | Locator, number: number, role: string, sourceFact: number): Locator {
  return scope.getByRole("listbox", { name: "Model messages" }).getByRole("option", {
    name: new RegExp(`^Model message ${number}: ${escapeRegExp(role)}, from fact ${sourceFact}\\. `),
  });
}

/**
 * Every /api/stream request body the page sends, in order, as `read` makes of its text. Read in the page as
 * the body leaves (a string, or a Blob: large contexts are sent as composed Blobs, whose bytes Playwright's
 * request events do not carry). Call before the page is opened.
 */
export async function recordStreamRequests<Body = string>(
  page: Page,
  read: (text: string) => Body = (text) => text as Body,
): Promise<Body[]> {
  const bodies: Body[] = [];
  await page.exposeFunction("__recordStreamBody", (text: string) => void bodies.push(read(text)));
  await page.addInitScript(() => {
    const record = (window as unknown as { __recordStreamBody: (text: string) => Promise<void> })
      .__recordStreamBody;
    const original = window.fetch;
    window.fetch = async function (input: RequestInfo | URL, init?: RequestInit) {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith("/api/stream")) {
        const body = init?.body;
        await record(typeof body === "string" ? body : body instanceof Blob ? await body.text() : "");
      }
      return original.call(this, input, init);
    };
  });
  return bodies;
}
