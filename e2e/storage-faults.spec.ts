import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  readStoredSession,
  sendMessage,
  test,
} from "./support.ts";

const sessionsPane = (page: Page) => page.getByRole("region", { name: "Sessions" });
const storagePanel = (page: Page) => page.getByRole("dialog", { name: "Storage" });

test.describe("when the disk is full", () => {
  test.beforeEach(async ({ page }) => {
    // A quota error injected at the storage layer: every IndexedDB write throws while the flag is set.
    await page.addInitScript(() => {
      const fail = (name: "put" | "add") => {
        const original = IDBObjectStore.prototype[name];
        IDBObjectStore.prototype[name] = function (
          this: IDBObjectStore,
          ...args: Parameters<IDBObjectStore["put"]>
        ) {
          if ((window as unknown as { failWrites?: boolean }).failWrites) {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          }
          return original.apply(this, args);
        };
      };
      fail("put");
      fail("add");
    });
  });

  test("the user is told, the chat keeps working, stored messages stay readable, and the failed write is retried", async ({
    page,
  }) => {
    await openPlayground(page);
    await sendMessage(page, "stored before");
    await expect(lastReply(page)).toContainText("stored before", { timeout: 15_000 });
    await page.evaluate(() => ((window as unknown as { failWrites: boolean }).failWrites = true));

    await sendMessage(page, "precious message");
    await expect(lastReply(page).locator("blockquote")).toHaveText("precious message", { timeout: 15_000 });
    // The storage banner, not the notice that the model call's record could not be saved either.
    const banner = page
      .getByRole("alert")
      .filter({ hasText: /storage quota is full, so \d+ messages? could not/ });
    await expect(banner).toContainText("The browser's storage quota is full");
    await expect(banner).toContainText(/\d+(\.\d)? (bytes|kB|MB|GB) of \d+(\.\d)? (kB|MB|GB) are used/);
    await expect(banner).toContainText("2 unsaved changes are kept in this tab");
    await expect(banner.getByRole("button", { name: "Export this session" })).toBeVisible();
    expect((await readStoredSession(page)).roles).toEqual(["system", "user", "assistant"]);
    // The sessions pane keeps a short warning while the changes are not stored.
    const unsavedWarning = sessionsPane(page).getByRole("button", {
      name: "A session has changes that could not be saved",
    });
    await expect(unsavedWarning).toBeVisible();

    // Leaving the session now would drop what is only in memory: the switch waits, and says why.
    await page.getByRole("button", { name: "New session", exact: true }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "has messages that are not stored yet" }),
    ).toBeVisible();
    await expect(page.getByRole("article", { name: "Your message" })).toHaveText([
      "stored before",
      "precious message",
    ]);

    await page.evaluate(() => ((window as unknown as { failWrites: boolean }).failWrites = false));
    // Saved by the button, or by the automatic retry if it comes first.
    await expect(async () => {
      const retry = banner.getByRole("button", { name: "Retry saving now" });
      if (await retry.isVisible()) await retry.click({ timeout: 1_000 });
      await expect(banner).toBeHidden({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(unsavedWarning).toBeHidden();
    expect((await readStoredSession(page)).roles).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    await page.reload();
    await expect(page.getByRole("article", { name: "Your message" })).toHaveText([
      "stored before",
      "precious message",
    ]);
  });
});

test.describe("when the disk is full and the page is left", () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (
        this: IDBObjectStore,
        ...args: Parameters<IDBObjectStore["put"]>
      ) {
        if ((window as unknown as { failWrites?: boolean }).failWrites)
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return put.apply(this, args);
      };
    });
  });

  test("the page asks before it goes away while messages are unsaved, and not once they are stored", async ({
    page,
  }) => {
    await openPlayground(page);
    await sendMessage(page, "stored before");
    await expect(lastReply(page)).toContainText("stored before", { timeout: 15_000 });
    await page.evaluate(() => ((window as unknown as { failWrites: boolean }).failWrites = true));
    await sendMessage(page, "only in memory");
    await expect(page.getByRole("alert").filter({ hasText: "storage quota is full" })).toBeVisible({
      timeout: 15_000,
    });
    // The reply is over, so nothing is added to the session after its entries are stored again below.
    await expect(lastReply(page)).toContainText("only in memory", { timeout: 15_000 });
    await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop", { timeout: 15_000 });

    // The dialog is answered (stay on the page) before the test goes on: a page showing it takes no clicks.
    const asked = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        void dialog.dismiss().then(() => resolve(dialog.type()));
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe("beforeunload");
    expect(page.isClosed()).toBe(false);

    await page.evaluate(() => ((window as unknown as { failWrites: boolean }).failWrites = false));
    // Saved by the automatic retry or by the button, whichever comes first.
    const banner = page.getByRole("alert").filter({ hasText: "storage quota is full" });
    await expect(async () => {
      const retry = banner.getByRole("button", { name: "Retry saving now" });
      if (await retry.isVisible()) await retry.click({ timeout: 1_000 });
      await expect(banner).toBeHidden({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    let prompted = false;
    page.once("dialog", (dialog) => {
      prompted = true;
      void dialog.accept();
    });
    await page.reload();
    await expect(page.getByRole("article", { name: "Your message" })).toHaveText([
      "stored before",
      "only in memory",
    ]);
    expect(prompted).toBe(false);
  });
});

test.describe("when IndexedDB never answers", () => {
  test.beforeEach(async ({ page }) => {
    // An open request that is never answered, as a stuck browser leaves it.
    await page.addInitScript(() => {
      IDBFactory.prototype.open = function () {
        const request = new EventTarget();
        Object.setPrototypeOf(request, IDBOpenDBRequest.prototype);
        return request as IDBOpenDBRequest;
      };
    });
  });

  test("the page says so instead of staying blank, and offers to go on in memory", async ({ page }) => {
    await page.goto("/");
    const stuck = page.getByRole("alert").filter({ hasText: "storage is not answering" });
    await expect(stuck).toBeVisible();
    await stuck.getByRole("button", { name: "Continue in memory" }).click();
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    await expect(
      page.getByRole("alert").filter({ hasText: "Sessions are kept in memory only" }),
    ).toContainText("did not answer");
    await sendMessage(page, "still works");
    await expect(lastReply(page).locator("blockquote")).toHaveText("still works", { timeout: 15_000 });
  });

  test("without a choice it goes on in memory by itself after a while", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    await page.clock.runFor(3_000);
    await expect(page.getByRole("alert").filter({ hasText: "storage is not answering" })).toBeVisible();
    await page.clock.runFor(6_000);
    await expect(
      page.getByRole("alert").filter({ hasText: "Sessions are kept in memory only" }),
    ).toContainText("did not answer within 8 s");
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  });
});

test("damaged and foreign records are skipped with a warning naming them, and the rest of the session loads", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "first");
  await expect(lastReply(page)).toContainText("first", { timeout: 15_000 });
  await sendMessage(page, "second");
  await expect(lastReply(page).locator("blockquote")).toHaveText("second", { timeout: 15_000 });

  await page.evaluate(async () => {
    const sessionId = localStorage.getItem("pi-playground:current-session") ?? "";
    const db = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
    });
    await new Promise<void>((resolve) => {
      const tx = db.transaction("entries", "readwrite");
      const store = tx.objectStore("entries");
      // Damage two stored entries in place: content no reader can take (not even as pi reads files), and a
      // record from a newer release.
      const damage = (seq: number, change: (record: Record<string, unknown>) => Record<string, unknown>) => {
        const read = store.get([sessionId, seq]);
        read.onsuccess = () => store.put(change(read.result as Record<string, unknown>));
      };
      damage(1, (record) => ({
        ...record,
        entry: { ...(record.entry as object), message: { role: "user", content: 42, timestamp: 1 } },
      }));
      damage(3, (record) => ({ ...record, schema: 7 }));
      tx.oncomplete = () => resolve();
    });
    db.close();
  });
  await page.reload();

  const warning = page.getByRole("alert").filter({ hasText: "Skipped stored entry" });
  await expect(warning).toContainText(
    "Skipped stored entry #1: content must be text or a list of content parts",
  );
  await expect(warning).toContainText(
    "Skipped stored entry #3: it was written by a newer version of the playground (schema 7",
  );
  // Records 1 and 3 (both user messages) are skipped; the system message and both replies load.
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Assistant reply", exact: true })).toHaveCount(2);

  await sendMessage(page, "third");
  await expect(lastReply(page).locator("blockquote")).toHaveText("third", { timeout: 15_000 });
  // The skipped records are left as they were; new messages never reuse their sequence numbers.
  const stored = await readStoredSession(page);
  expect(stored.roles).toEqual(["system", "user", "assistant", "user", "assistant", "user", "assistant"]);
});

test.describe("when IndexedDB is unavailable", () => {
  test.use({ allowConsoleErrors: [] });
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      IDBFactory.prototype.open = () => {
        throw new DOMException("IndexedDB is disabled in this window.", "SecurityError");
      };
    });
  });

  test("the chat works in memory and says that nothing survives a reload", async ({ page }) => {
    await openPlayground(page);
    await expect(
      page.getByRole("alert").filter({ hasText: "Sessions are kept in memory only" }),
    ).toContainText("IndexedDB is unavailable");
    await sendMessage(page, "still works");
    await expect(lastReply(page).locator("blockquote")).toHaveText("still works", { timeout: 15_000 });
    // The sessions pane warns, and its warning opens the Storage panel that says what memory-only means.
    await sessionsPane(page)
      .getByRole("button", { name: "In memory only: sessions end with this tab" })
      .click();
    await expect(storagePanel(page)).toContainText("reloading or closing the tab ends every session");
    await expect(storagePanel(page).getByRole("button", { name: /Keep my data/ })).toHaveCount(0);
    await expectAccessible(page, "storage panel, memory only");
  });
});

test("the Storage panel shows the space used and whether the browser keeps the data, and asks to keep it", async ({
  page,
}) => {
  await openPlayground(page);
  // Healthy storage: the sessions pane has no warning, only the way to the panel.
  await expect(
    sessionsPane(page).getByRole("button", { name: /could not be saved|full|evict|memory/ }),
  ).toHaveCount(0);
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByRole("menuitem", { name: "Storage…" }).click();
  const panel = storagePanel(page);
  await expect(panel).toContainText(
    /Used\s*\d+(\.\d)? (bytes|kB|MB|GB) of \d+(\.\d)? (kB|MB|GB|bytes) \(\d+%\)/,
  );
  await expect(panel).toContainText(/Kept\s*(Persistent|May be evicted)/);
  await expect(panel.getByRole("meter", { name: "Share of the storage quota used" })).toBeVisible();
  await expectAccessible(page, "storage panel");
  const keep = panel.getByRole("button", { name: "Keep my data (persistent storage)" });
  if (await keep.isVisible()) {
    await keep.click();
    await expect(panel.getByRole("status")).toContainText(/^(Granted|Not granted): /);
  }
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toHaveCount(0);
  // Focus goes back where it came from: the menu's button.
  await expect(page.getByRole("button", { name: "Settings" })).toBeFocused();
  // The sessions pane opens the same panel.
  await sessionsPane(page).getByRole("button", { name: "Storage…" }).click();
  await expect(storagePanel(page)).toBeVisible();
});

test.describe("when storage is nearly full", () => {
  test.beforeEach(async ({ page }) => {
    // The browser reports 90% of its quota used (the estimate only: writes still work).
    await page.addInitScript(() => {
      const quota = 2 * 1024 ** 3;
      StorageManager.prototype.estimate = () => Promise.resolve({ usage: quota * 0.9, quota });
    });
  });

  test("the sessions pane warns, the header's menu marks Storage, and the panel shows the share", async ({
    page,
  }) => {
    await openPlayground(page);
    const warning = sessionsPane(page).getByRole("button", { name: "Storage 90% full" });
    await expect(warning).toBeVisible();
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("menuitem", { name: "Storage… (needs attention)" })).toBeVisible();
    await page.keyboard.press("Escape");
    await warning.click();
    await expect(storagePanel(page)).toContainText("Storage 90% full.");
    await expect(storagePanel(page)).toContainText("1.8 GB of 2 GB (90%)");
    await expectAccessible(page, "storage panel, nearly full");
  });
});
