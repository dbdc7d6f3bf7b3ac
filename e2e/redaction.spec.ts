import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

const KEY = "sk-test-ABCDEF1234567890";
const EMAIL = "alice@example.com";
const HOME = "/home/alice/project";

async function openExport(page: Page, title: RegExp) {
  const item = page
    .getByRole("region", { name: "Sessions" })
    .getByRole("list", { name: "Session list" })
    .getByRole("listitem")
    .filter({ hasText: title });
  await item.getByRole("button", { name: /^Actions for/ }).click();
  await page.getByRole("menuitem", { name: "Export as JSONL", exact: true }).click();
  return page.getByRole("dialog", { name: /^Export .* as JSONL$/ });
}

test("an export is redacted as chosen, the preview lists what goes, and the choice is remembered", async ({
  page,
}) => {
  await openPlayground(page);
  // Markup in the content stays text: in the page, the preview and the file.
  await sendMessage(page, `notes: ${KEY} <img src=x onerror=alert(1)>${EMAIL} in ${HOME}`);
  await expect(lastReply(page)).toContainText(KEY, { timeout: 15_000 });
  page.on("dialog", () => {
    throw new Error("a script in the content ran");
  });

  let dialog = await openExport(page, /notes/);
  await expect(dialog.getByRole("radio", { name: /^Secrets/ })).toBeChecked();
  const preview = dialog.getByRole("region", { name: "What will be replaced" });
  // In the title, the message, the mirror's echo of it and the recorded call: only keys under Secrets.
  await expect(preview.getByRole("status")).toHaveText(/^(\d+) replaced: \1 API keys\.$/);
  await dialog.getByRole("radio", { name: /^Strict/ }).check();
  await expect(preview.getByRole("status")).toHaveText(
    /^\d+ replaced: \d+ API keys, \d+ e-mail addresses, \d+ home folders\.$/,
  );
  await expect(preview.getByRole("listitem").filter({ hasText: EMAIL }).first()).toContainText(
    "[redacted:email]",
  );
  await expectAccessible(page, "the export dialog");
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Save" }).click();
  const download = await downloading;
  const text = await readFile(await download.path(), "utf8");
  for (const leak of [KEY, EMAIL, "/home/alice"]) expect(text).not.toContain(leak);
  for (const line of text.trim().split("\n")) expect(() => JSON.parse(line) as unknown).not.toThrow();
  expect(text).toContain("<img src=x onerror=alert(1)>[redacted:email]");
  await expect(dialog).toBeHidden();

  // Remembered across a reload; None writes the file as it is.
  await page.reload();
  dialog = await openExport(page, /notes/);
  await expect(dialog.getByRole("radio", { name: /^Strict/ })).toBeChecked();
  await dialog.getByRole("radio", { name: /^None/ }).check();
  await expect(dialog.getByRole("region", { name: "What will be replaced" }).getByRole("status")).toHaveText(
    "Nothing is replaced: the file is saved as it is.",
  );
  const plain = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Save" }).click();
  expect(await readFile(await (await plain).path(), "utf8")).toContain(KEY);
});

test("the LHAR export is redacted too", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, `token ${KEY} from ${EMAIL}`);
  await expect(lastReply(page)).toContainText(KEY, { timeout: 15_000 });
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Anatomy" }).click();
  const anatomy = page.getByRole("region", { name: "Anatomy" });
  await anatomy.getByRole("button", { name: "Export as LHAR (.lhar.json)" }).click();
  const dialog = page.getByRole("dialog", { name: "Export as LHAR (.lhar.json)" });
  await dialog.getByRole("radio", { name: /^Strict/ }).check();
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Save" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.lhar\.json$/);
  const text = await readFile(await download.path(), "utf8");
  expect(JSON.parse(text)).toHaveProperty("lhar.entries");
  for (const leak of [KEY, EMAIL]) expect(text).not.toContain(leak);
});
