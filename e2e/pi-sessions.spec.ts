import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Page } from "@playwright/test";
import {
  loadPi,
  piRequestMessages,
  readText,
  writePiSessionFiles,
  type PiSessionFiles,
} from "./fixtures/pi-session-files.ts";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  readStoredFacts,
  sendMessage,
  test,
} from "./support.ts";

/**
 * pi coding agent's session files, both ways: files pi's own SessionManager wrote import as the trees they
 * are, and the next request is exactly what pi would send for them followed by the new prompt; an export
 * for pi is a file pi reads back entry for entry; a damaged file names its problems before anything is
 * imported.
 */

let files: PiSessionFiles;
test.beforeAll(async () => {
  files = await writePiSessionFiles();
});

const sessionList = (page: Page) =>
  page.getByRole("region", { name: "Sessions" }).getByRole("list", { name: "Session list" });

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByLabel("Import a session file")
    .setInputFiles({ name, mimeType: "application/jsonl", buffer: Buffer.from(text) });
}

/** The messages of the last model call recorded for the current session, as sent (IndexedDB `callBodies`). */
async function lastCallMessages(page: Page): Promise<unknown[] | undefined> {
  return page.evaluate(async () => {
    const sessionId = localStorage.getItem("pi-playground:current-session") ?? "";
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const range = IDBKeyRange.bound([sessionId, -1], [sessionId, Number.MAX_SAFE_INTEGER]);
    type Body = { messages: { kept: string; value?: unknown[] } };
    const bodies = await new Promise<Body[]>((resolve) => {
      const request = db.transaction("callBodies", "readonly").objectStore("callBodies").getAll(range);
      request.onsuccess = () => resolve(request.result as Body[]);
    });
    db.close();
    const last = bodies.at(-1);
    return last?.messages.kept === "all" ? last.messages.value : undefined;
  });
}

async function exportForPi(page: Page, title: RegExp): Promise<{ name: string; text: string }> {
  const item = sessionList(page).getByRole("listitem").filter({ hasText: title });
  await item.getByRole("button", { name: /^Actions for/ }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export for pi coding agent" }).click();
  await page
    .getByRole("dialog", { name: /^Export/ })
    .getByRole("button", { name: "Save" })
    .click();
  const download = await downloading;
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
}

for (const which of ["branched", "compacted"] as const) {
  test(`a pi file ${which === "branched" ? "with an abandoned branch and a branch summary" : "after a compaction"}: the next request is pi's context, then the prompt`, async ({
    page,
  }) => {
    const path = files[which];
    const expected = await piRequestMessages(path);
    expect(expected.length).toBeGreaterThan(4);
    await openPlayground(page);
    await importFile(page, basename(path), readText(path));

    // Named as pi names it; the model pi used is not served here, which the import says.
    await expect(sessionList(page).getByRole("button", { name: /^Parser work/ })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await expect(page.getByRole("status").filter({ hasText: "Imported “Parser work”" })).toContainText(
      "the file's model, anthropic/claude-sonnet-4-5, is not available here: the session uses mirror/mirror",
    );
    // The chat shows the path to the leaf: never the abandoned branch.
    await expect(page.getByText("Documented each function of src/parse.ts.")).toBeVisible();
    await expect(page.getByText("Started a Rust crate")).toHaveCount(0);

    await sendMessage(page, "What is left to do?");
    await expect(lastReply(page)).toContainText("What is left to do?", { timeout: 15_000 });
    await expect.poll(() => lastCallMessages(page), { timeout: 10_000 }).toBeDefined();
    const sent = (await lastCallMessages(page)) ?? [];

    // Exactly what pi sends for this file, system prompt included...
    expect(sent.slice(0, expected.length)).toEqual(expected);
    // ...then the Agent's declaration that this playground's tools replace pi's (as pi's own Agent
    // declares a change of tools before a prompt), then the prompt.
    const rest = sent.slice(expected.length);
    expect(rest).toHaveLength(2);
    expect(rest[0]).toMatchObject({
      role: "system",
      content: "",
      toolsAdded: [{ name: "current_time" }, { name: "calculate" }, { name: "save_note" }],
      toolsRemoved: [{ name: "read" }, { name: "bash" }],
    });
    expect(rest[1]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "What is left to do?" }],
    });
    if (which === "compacted") {
      // The summary replaces what came before the kept tail; the abandoned branch never reaches the model.
      expect(JSON.stringify(sent)).toContain("The user asked what the parser does");
      expect(JSON.stringify(sent)).not.toContain("What does the parser in src/parse.ts do?");
    } else {
      expect(JSON.stringify(sent)).toContain("Tried rewriting the parser in Rust");
      expect(JSON.stringify(sent)).not.toContain("Started a Rust crate");
    }

    // Exported for pi, the session continues in pi from here: pi's context for the file is what was just
    // sent, and the reply.
    const exported = await exportForPi(page, /^Parser work/);
    expect(exported.name).toMatch(/^parser-work-.*\.pi\.jsonl$/);
    const again = join(tmpdir(), `${which}-${Date.now()}.jsonl`);
    await writeFile(again, exported.text);
    const continued = await piRequestMessages(again);
    expect(continued.slice(0, sent.length)).toEqual(sent);
    expect(continued.slice(sent.length)).toMatchObject([{ role: "assistant" }]);
  });
}

test("an export for pi of an imported pi file is that file, entry for entry", async ({ page }) => {
  const { session } = await loadPi();
  const original = readText(files.compacted);
  await openPlayground(page);
  await importFile(page, basename(files.compacted), original);
  await expect(sessionList(page).getByRole("button", { name: /^Parser work/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
  const exported = await exportForPi(page, /^Parser work/);
  const entries = session.parseSessionEntries(exported.text);
  expect(entries).toEqual(session.parseSessionEntries(original));
  expect(entries.length).toBeGreaterThan(10);
  expect(exported.text).toBe(original);
});

test("a damaged pi file names each problem by line and entry; nothing changes unless the rest is imported", async ({
  page,
}) => {
  const lines = readText(files.branched).trimEnd().split("\n");
  const entries = lines.map((line) => JSON.parse(line) as { id?: string; type: string });
  // Lose the line of the first answer (its question's reply), and add an entry of a type from a later pi.
  const lost = entries.findIndex(
    (entry) => entry.type === "message" && JSON.stringify(entry).includes("tokenizes"),
  );
  const orphan = entries[lost + 1];
  const lostId = entries[lost]?.id ?? "";
  const damaged = [
    ...lines.slice(0, lost),
    ...lines.slice(lost + 1),
    JSON.stringify({
      type: "checkpoint",
      id: "c0ffee01",
      parentId: entries.at(-1)?.id,
      timestamp: "2026-03-02T10:00:00.000Z",
      files: ["src/parse.ts"],
    }),
  ].join("\n");

  await openPlayground(page);
  await sendMessage(page, "existing work");
  await expect(lastReply(page)).toContainText("existing work", { timeout: 15_000 });
  const before = await readStoredFacts(page);

  await importFile(page, "damaged.jsonl", damaged);
  const dialog = page.getByRole("dialog", { name: "Import damaged.jsonl?" });
  await expect(dialog).toBeVisible();
  const problems = dialog.getByRole("alert");
  // Lines are numbered as in the damaged file: the orphan is where the lost line was.
  await expect(problems).toContainText(
    `line ${lost + 1}, entry ${orphan?.id}: its parent ${lostId} is not in the file; it and the`,
  );
  await expect(problems).toContainText(
    "are kept as a conversation of their own (a new root), as pi reads them",
  );
  await expect(dialog).toContainText(
    `kept, not understood: 1 entry of type "checkpoint" (line ${lines.length}: entry c0ffee01)`,
  );
  await expectAccessible(page, "the import dialog with problems");
  await dialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(1);
  expect(await readStoredFacts(page)).toEqual(before);

  await importFile(page, "damaged.jsonl", damaged);
  await page
    .getByRole("dialog", { name: "Import damaged.jsonl?" })
    .getByRole("button", { name: "Import as described" })
    .click();
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("status").filter({ hasText: "Imported “Parser work”" })).toContainText(
    'kept, not understood: 1 entry of type "checkpoint"',
  );
  const existing = sessionList(page).getByRole("button", { name: /^existing work/ });
  await existing.click();
  await expect(existing).toHaveAttribute("aria-current", "true");
  expect(await readStoredFacts(page)).toEqual(before);
});

test("a file with values pi reads though its types do not have them imports as pi reads it, and the chat shows them", async ({
  page,
}) => {
  const lines = readText(files.branched).trimEnd().split("\n");
  const values = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const last = values.findLast(
    (entry) => (entry.message as { role?: string } | undefined)?.role === "assistant",
  );
  const reply = last?.message as { content: unknown[]; usage: Record<string, unknown>; stopReason: string };
  // As an OpenAI-compatible server's reply can come back: a block of its own, usage without a cost.
  reply.content.push({ type: "citation", source: "https://example.com/parser" });
  delete reply.usage.cost;
  await openPlayground(page);
  await importFile(page, "odd.jsonl", values.map((value) => JSON.stringify(value)).join("\n"));
  await expect(page.getByRole("status").filter({ hasText: "Imported “Parser work”" })).toContainText(
    "read as pi reads it: usage has no cost: kept as it is (counted as 0 here)",
  );
  const block = page.getByRole("group").filter({ hasText: "[citation block]: kept and sent as it is" });
  await expect(block).toBeVisible();
  await block.getByText("[citation block]").click();
  await expect(block).toContainText("https://example.com/parser");
  await expectAccessible(page, "a reply with a block of another type");
});

test("a fact of a role nobody here defined imports as it is, and the chat and the inspector show it as JSON", async ({
  page,
}) => {
  const values = readText(files.branched)
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const last = values.at(-1) as { id: string; timestamp: string };
  // As a live pi's extension may add it to a session: a role of its own, with a custom type.
  values.push({
    type: "message",
    id: "artifact1",
    parentId: last.id,
    timestamp: last.timestamp,
    message: { role: "artifact", customType: "plan", steps: ["read", "write"], timestamp: 1 },
  });
  await openPlayground(page);
  await importFile(page, "artifact.jsonl", values.map((value) => JSON.stringify(value)).join("\n"));
  await expect(page.getByRole("status").filter({ hasText: "Imported “Parser work”" })).toBeVisible();

  const shown = page.getByRole("region", {
    name: "Message of a role the playground does not know: artifact:plan",
  });
  await expect(shown).toContainText("never sent to the model");
  await expect(shown.locator("pre")).toContainText('"steps": [');
  await expect(shown.locator("pre")).toContainText('"customType": "plan"');
  await expectAccessible(page, "a fact of a role nobody defined");

  // The inspector lists it with its role and what it holds; it is never sent.
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const row = page
    .getByRole("region", { name: "Session facts" })
    .getByRole("option", { name: /artifact:plan/ });
  await expect(row).toContainText('"steps":["read","write"]');
});
