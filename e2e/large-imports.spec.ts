import type { Page } from "@playwright/test";
import { onDisk, piSessionFile, userChain } from "./fixtures/session-files.ts";
import { expect, expectAccessible, openPlayground, test } from "./support.ts";

/**
 * Large imports freeze the tab no more: a pi session file of 100,000 entries is read, checked and stored
 * while the page keeps answering, its progress shown where it was started, and Cancel leaves nothing
 * stored; a message of megabytes and an id of a megabyte are shown without freezing the page.
 */

/** How many entry records IndexedDB holds, of every session. */
function storedEntries(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const count = await new Promise<number>((resolve, reject) => {
      const request = db.transaction("entries").objectStore("entries").count();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return count;
  });
}

const sessions = (page: Page) => page.getByRole("region", { name: "Sessions" });
const sessionItems = (page: Page) =>
  sessions(page).getByRole("list", { name: "Session list" }).getByRole("listitem");

test("Large imports freeze the tab: 100,000 entries show their progress, the page answers, and Cancel stores nothing", async ({
  page,
}) => {
  const path = await onDisk("hundred-thousand.jsonl", piSessionFile(userChain(100_000)));
  await openPlayground(page);
  // A fresh profile: the one new session, stored before anything is imported.
  await expect(sessionItems(page)).toHaveCount(1);
  const entriesBefore = await storedEntries(page);

  await page.getByLabel("Import a session file").setInputFiles(path);
  const progress = sessions(page).getByRole("progressbar", { name: "Importing hundred-thousand.jsonl" });
  await expect(progress).toBeVisible();
  await expectAccessible(page, "an import in progress");
  // The page answers while the file is read: a search typed now filters the list at once.
  const search = sessions(page).getByRole("searchbox", { name: "Search sessions" });
  await search.fill("no such title");
  await expect(sessions(page).getByText("No session matches “no such title”.")).toBeVisible();
  await expect(progress).toBeVisible();
  await search.fill("");

  // Cancel is reached from the keyboard, and nothing is stored.
  const cancel = sessions(page).getByRole("button", { name: "Cancel import" });
  await cancel.focus();
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("status").filter({ hasText: "Import cancelled; nothing was stored." }),
  ).toBeVisible();
  await expect(progress).toBeHidden();
  await expect(sessionItems(page)).toHaveCount(1);
  expect(await storedEntries(page)).toBe(entriesBefore);
});

test("Large imports freeze the tab: a session of 20,000 entries is imported in slices and opens at its last one", async ({
  page,
}) => {
  const path = await onDisk("twenty-thousand.jsonl", piSessionFile(userChain(20_000)));
  await openPlayground(page);
  await page.getByLabel("Import a session file").setInputFiles(path);
  await expect(sessions(page).getByRole("button", { name: /^Imported: twenty-thousand/ })).toHaveAttribute(
    "aria-current",
    "true",
    { timeout: 60_000 },
  );
  await expect(
    page.getByRole("article", { name: "Your message" }).getByText("message number 19999"),
  ).toBeVisible();
  await expect(sessions(page).getByRole("progressbar")).toHaveCount(0);
});

test("Large imports freeze the tab: a message of 8 MB and an id of 1 MB are shown without freezing the page", async ({
  page,
}) => {
  const entries = userChain(3, (index) =>
    index === 1 ? `start ${"y".repeat(8 * 1024 * 1024)} end` : `short ${index}`,
  );
  const hugeId = `id-${"z".repeat(1024 * 1024)}`;
  entries[2]!.id = hugeId;
  const path = await onDisk("huge-parts.jsonl", piSessionFile(entries));
  await openPlayground(page);
  await page.getByLabel("Import a session file").setInputFiles(path);
  await expect(sessions(page).getByRole("button", { name: /^Imported: huge-parts/ })).toHaveAttribute(
    "aria-current",
    "true",
    { timeout: 60_000 },
  );
  await expect(page.getByText("short 2")).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" }).getByText(/^start y+/)).toBeVisible();
  // The page answers once it is shown (how long its tasks take, the import benchmark measures).
  const search = sessions(page).getByRole("searchbox", { name: "Search sessions" });
  await search.fill("huge");
  await expect(sessionItems(page)).toHaveCount(1);
});
