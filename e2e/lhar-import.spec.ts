import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

async function openAnatomy(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Anatomy" }).click();
  await expect(page.getByRole("region", { name: "Anatomy" })).toBeVisible();
}

/** The composition table of recorded call `number`, row by row. */
async function compositionOf(page: Page, number: number): Promise<string[]> {
  const anatomy = page.getByRole("region", { name: "Anatomy" });
  await anatomy.getByRole("combobox", { name: "Request" }).selectOption(String(number - 1));
  const table = anatomy.getByRole("table", { name: "Tokens by category" });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  return (await table.getByRole("row").allInnerTexts()).map((row) => row.replace(/\s+/g, " ").trim());
}

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel("Import a session file")
    .setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

test("an LHAR export imports back as a session of calls with no facts, the same composition per call", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "What does the model see?");
  await expect(lastReply(page)).toContainText("I received");
  await sendMessage(page, "And now?");
  await expect(lastReply(page)).toContainText("I received 4 messages");

  await openAnatomy(page);
  const before = [await compositionOf(page, 1), await compositionOf(page, 2)];
  expect(before[1]?.length).toBeGreaterThan(2);

  const anatomy = page.getByRole("region", { name: "Anatomy" });
  await anatomy.getByRole("button", { name: "Export as LHAR (.lhar.json)" }).click();
  const dialog = page.getByRole("dialog", { name: "Export as LHAR (.lhar.json)" });
  await dialog.getByRole("radio", { name: /^None/ }).check();
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Save" }).click();
  const download = await downloading;
  const text = await readFile(await download.path(), "utf8");
  const sessions = page.getByRole("list", { name: "Session list" }).getByRole("listitem");
  const sessionCount = await sessions.count();

  // A damaged copy is refused where the person looks, naming what is wrong; nothing is added.
  const damaged = JSON.parse(text) as {
    lhar: { entries: { gen_ai: { usage: { output_tokens: unknown } } }[] };
  };
  const second = damaged.lhar.entries[1];
  if (second) second.gen_ai.usage.output_tokens = "<script>alert(1)</script>";
  await importFile(page, "damaged.lhar.json", JSON.stringify(damaged));
  await expect(
    page.getByText(
      "damaged.lhar.json is not a valid LHAR file: entry 2 (lhar.entries[1]): gen_ai.usage.output_tokens must be number. Nothing was imported.",
    ),
  ).toBeVisible();
  await expect(sessions).toHaveCount(sessionCount);

  // The file itself: a session of two calls, no facts, and the page says so.
  await importFile(page, download.suggestedFilename(), text);
  await expect(page.getByRole("button", { name: /^Imported: / })).toHaveAttribute("aria-current", "true");
  await expect(sessions).toHaveCount(sessionCount + 1);
  const callsOnly = page.getByRole("region", { name: "Calls, no facts" });
  await expect(callsOnly).toContainText("This session has 2 model calls and no facts.");
  await expect(page.getByText(/2 model calls and no facts \(an LHAR file records calls/)).toBeVisible();
  await page.getByRole("tab", { name: "Facts and model view" }).click();
  await expect(page.getByRole("region", { name: "Session facts" })).toContainText(
    "This session has 2 model calls and no facts.",
  );
  await expectAccessible(page, "a session of calls with no facts");

  // Calls: both, each with its model and usage.
  await callsOnly.getByRole("button", { name: "Open the calls" }).click();
  const calls = page.getByRole("listbox", { name: "Recorded calls" }).getByRole("option");
  await expect(calls).toHaveCount(2);

  // Anatomy: the same composition, call by call, as the file recorded it.
  await callsOnly.getByRole("button", { name: "Open the anatomy" }).click();
  await expect(anatomy).toBeVisible();
  expect([await compositionOf(page, 1), await compositionOf(page, 2)]).toEqual(before);
  await expect(anatomy.getByText(/split by category as the LHAR file recorded them/)).toBeVisible();
  await expectAccessible(page, "the anatomy of an imported LHAR file");
});
