import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import {
  expect,
  lastReply,
  openPlayground,
  readModelView,
  readStoredFacts,
  sendMessage,
  test,
} from "./support.ts";

const sessionList = (page: Page) =>
  page.getByRole("region", { name: "Sessions" }).getByRole("list", { name: "Session list" });

async function exportCurrent(
  page: Page,
  title: RegExp,
  kind: "JSONL" | "JSON",
): Promise<{ name: string; text: string }> {
  const item = sessionList(page).getByRole("listitem").filter({ hasText: title });
  await item.getByRole("button", { name: /^Actions for/ }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: `Export as ${kind}`, exact: true }).click();
  await page
    .getByRole("dialog", { name: /^Export/ })
    .getByRole("button", { name: "Save" })
    .click();
  const download = await downloading;
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
}

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel("Import a session file")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

test("an exported session imports into a fresh profile with identical facts and model view", async ({
  page,
  browser,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name: /approval trail/ }).click();
  // The example opens as a session of its own, with its own composer: typed before it shows, the message
  // went to the composer it replaced.
  await expect(page.getByRole("region", { name: "Approval request: Run save_note" })).toBeVisible();
  await sendMessage(page, "compute 3 * 3");
  await expect(lastReply(page)).toContainText("returned: 3 * 3 = 9", { timeout: 15_000 });
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("combobox", { name: "Approval requests" }).selectOption("userText");
  const facts = await readStoredFacts(page);
  const modelView = await readModelView(page);

  for (const kind of ["JSONL", "JSON"] as const) {
    const file = await exportCurrent(page, /approval trail/, kind);
    expect(file.name).toMatch(kind === "JSONL" ? /\.jsonl$/ : /\.json$/);

    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await openPlayground(other);
    await importFile(other, file.name, file.text);
    await expect(
      sessionList(other).getByRole("button", { name: /^Example: an approval trail/ }),
    ).toHaveAttribute("aria-current", "true");
    expect(await readStoredFacts(other)).toEqual(facts);
    await other.getByRole("button", { name: "Inspector", exact: true }).click();
    await expect(other.getByRole("combobox", { name: "Approval requests" })).toHaveValue("userText");
    expect(await readModelView(other)).toEqual(modelView);
    await fresh.close();
  }
});

test("a file with a broken line names the line; nothing existing changes; the rest imports only when confirmed", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "existing work");
  await expect(lastReply(page)).toContainText("existing work", { timeout: 15_000 });
  const file = await exportCurrent(page, /existing work/, "JSONL");
  const before = await readStoredFacts(page);

  const lines = file.text.trim().split("\n");
  lines.splice(2, 0, '{"type": "message", "message": {"role": "user", "content": "oops"');
  await importFile(page, "broken.jsonl", lines.join("\n"));
  const dialog = page.getByRole("dialog", { name: "Import broken.jsonl?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("alert")).toContainText("line 3: not valid JSON");
  await dialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(1);
  expect(await readStoredFacts(page)).toEqual(before);

  await importFile(page, "broken.jsonl", lines.join("\n"));
  await page
    .getByRole("dialog", { name: "Import broken.jsonl?" })
    .getByRole("button", { name: "Import as described" })
    .click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);
  expect(await readStoredFacts(page)).toEqual(before);
  await sessionList(page)
    .getByRole("button", { name: /^existing work/ })
    .first()
    .click();
  expect(await readStoredFacts(page)).toEqual(before);
});

test("an unreadable file's error is a notice with a Dismiss button, not a red paragraph stuck in the sidebar", async ({
  page,
}) => {
  await openPlayground(page);
  await importFile(page, "notes.json", JSON.stringify({ format: "something-else", messages: [] }));
  const alert = page.getByRole("alert").filter({ hasText: "notes.json" });
  await expect(alert).toContainText('notes.json is a "something-else" file, not a playground session.');
  await expect(page.getByRole("region", { name: "Sessions" }).getByRole("alert")).toHaveCount(0);
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(1);
  await alert.getByRole("button", { name: "Dismiss" }).click();
  await expect(alert).toHaveCount(0);
});

test("re-importing a file marks the new session imported and says one of that name was already there", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "travelling work");
  await expect(lastReply(page)).toContainText("travelling work", { timeout: 15_000 });
  const file = await exportCurrent(page, /travelling work/, "JSONL");
  await importFile(page, "travelling.jsonl", file.text);
  const items = sessionList(page).getByRole("listitem").filter({ hasText: "travelling work" });
  await expect(items).toHaveCount(2);
  await expect(page.getByRole("status").filter({ hasText: "Imported “travelling work”" })).toContainText(
    "a session of that name was already here and is unchanged",
  );
  await expect(items.filter({ hasText: "imported" })).toHaveCount(1);
  await expect(items.first()).toContainText("imported");

  await importFile(page, "travelling.jsonl", file.text);
  await expect(items).toHaveCount(3);
  await expect(page.getByRole("status").filter({ hasText: "Imported “travelling work”" })).toContainText(
    "2 sessions of that name were already here and are unchanged",
  );
  await expect(items.filter({ hasText: "imported" })).toHaveCount(2);
});

test("the Exported … for pi notice goes away with the next action instead of outliving it", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "export me");
  await expect(lastReply(page)).toContainText("export me", { timeout: 15_000 });
  const item = sessionList(page)
    .getByRole("listitem")
    .filter({ hasText: /export me/ });
  await item.getByRole("button", { name: /^Actions for/ }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export for pi coding agent" }).click();
  await page
    .getByRole("dialog", { name: /^Export/ })
    .getByRole("button", { name: "Save" })
    .click();
  await downloading;
  const notice = page.getByRole("status").filter({ hasText: "Exported “export me” for pi" });
  await expect(notice).toContainText("recorded model call stays here");

  await sendMessage(page, "and on we go");
  await expect(notice).toHaveCount(0);
});
