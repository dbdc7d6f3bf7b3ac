import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  factRow,
  lastReply,
  openPlayground,
  rawPayload,
  sendMessage,
  test,
} from "./support.ts";

const TITLE = /^Example: a compaction summary/;
const sessionList = (page: Page) =>
  page.getByRole("region", { name: "Sessions" }).getByRole("list", { name: "Session list" });

/** Export the current session through its menu, redacted as the dialog is set (its remembered choice). */
async function exportAs(page: Page, item: string): Promise<string> {
  await sessionList(page)
    .getByRole("listitem")
    .filter({ hasText: TITLE })
    .getByRole("button", { name: /^Actions for/ })
    .click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: item, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Export/ });
  await dialog.getByRole("radio", { name: /^None/ }).check();
  await dialog.getByRole("button", { name: "Save" }).click();
  const download = await downloading;
  return readFile(await download.path(), "utf8");
}

/** A JSON export compared as the session it describes: the moment of export aside. */
function asSession(json: string): unknown {
  const { exportedAt: _exportedAt, ...session } = JSON.parse(json) as Record<string, unknown>;
  return session;
}

/** The number of the last message in the chat, as its actions name it. */
async function lastMessageNumber(page: Page): Promise<number> {
  const label = await page
    .getByRole("group", { name: /^Actions for message \d+$/ })
    .last()
    .getAttribute("aria-label");
  return Number(label?.replace(/\D+/g, ""));
}

test("a session exported as one HTML file opens from disk with no network, read-only and searchable, and imports back as itself", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  // A session with a compaction, a tool call, a notification hidden from the model, and a branch.
  await openPlayground(page);
  await page.getByRole("button", { name: "Load example" }).click();
  await page.getByRole("menuitem", { name: /compaction summary/ }).click();
  await expect(sessionList(page).getByRole("button", { name: TITLE })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await sendMessage(page, "compute 12 * (3 + 4)");
  await expect(lastReply(page)).toContainText("returned: 12 * (3 + 4) = 84", { timeout: 20_000 });
  const toolReply = await lastMessageNumber(page);
  await sendMessage(page, "go by car");
  await expect(lastReply(page).locator("blockquote")).toHaveText("go by car", { timeout: 20_000 });
  await page
    .getByRole("group", { name: `Actions for message ${toolReply}` })
    .getByRole("button", { name: "Fork from here" })
    .click();
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const inject = page.getByRole("dialog", { name: "Inject message" });
  await inject.getByLabel("Type", { exact: true }).selectOption("notification");
  await inject.getByLabel("Text", { exact: true }).fill("Build 1234 finished <img src=x onerror=alert(1)>");
  await inject.getByRole("button", { name: "Inject: append now" }).click();
  await expect(inject).toBeHidden();
  await sendMessage(page, "go by train");
  await expect(lastReply(page).locator("blockquote")).toHaveText("go by train", { timeout: 20_000 });

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const notification = page
    .getByRole("listbox", { name: "Facts" })
    .getByRole("option", { name: /^Fact \d+: notification, hidden by policy\. / });
  const notificationFact = Number(
    /^Fact (\d+)/.exec((await notification.getAttribute("aria-label")) ?? "")?.[1],
  );
  expect(notificationFact).toBeGreaterThan(1);

  const json = await exportAs(page, "Export as JSON");
  const html = await exportAs(page, "Export as web page (HTML)");
  const file = testInfo.outputPath("session.html");
  await writeFile(file, html);
  const fileUrl = pathToFileURL(file).href;

  // Opened from disk, with every request refused and counted: none is attempted.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const attempted: string[] = [];
  await context.route("**/*", (route) => {
    if (route.request().url().split("#")[0] === fileUrl) return route.continue();
    attempted.push(route.request().url());
    return route.abort();
  });
  context.on("request", (request) => {
    if (request.url().split("#")[0] !== fileUrl) attempted.push(request.url());
  });
  const viewer = await context.newPage();
  const errors: string[] = [];
  viewer.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  viewer.on("pageerror", (error) => errors.push(error.message));
  viewer.on("dialog", (dialog) => {
    errors.push(`a dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await viewer.goto(fileUrl);

  // The chat, read-only: the branch's messages, the tool call, no composer.
  await expect(viewer.getByRole("heading", { level: 1 })).toContainText("Example: a compaction summary");
  await expect(viewer.getByRole("article", { name: "Your message" }).last()).toHaveText("go by train");
  await expect(viewer.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84");
  await expect(viewer.getByRole("heading", { level: 1 })).toContainText("read-only");
  await expect(
    viewer.getByRole("button", { name: /^(Edit & ask again|Regenerate|Fork from here)$/ }),
  ).toHaveCount(0);
  await expect(viewer.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  // The facts beside the model view, with their fates.
  await expect(factRow(viewer, notificationFact, "notification", "hidden by policy")).toBeVisible();
  await expect(viewer.getByRole("listbox", { name: "Model messages" })).toBeVisible();
  await expectAccessible(viewer, "an exported session, facts and model view");

  // A deep link opens its fact.
  await viewer.goto(`${fileUrl}#fact-${notificationFact}`);
  await expect(factRow(viewer, notificationFact, "notification")).toHaveAttribute("aria-selected", "true");

  // A call with its payload.
  await viewer.goto(`${fileUrl}#call-1`);
  const call = viewer.getByRole("article", { name: "Call 1" });
  await expect(call).toBeVisible();
  await call.getByRole("tab", { name: "Provider payload" }).click();
  // The payload is a folded tree here too: its search opens the folds around a match.
  const payload = call.getByRole("tabpanel");
  await payload.getByRole("searchbox", { name: "Search Payload" }).fill("compute 12");
  await expect(payload.getByRole("tree")).toContainText("compute 12 * (3 + 4)");
  expect(await rawPayload(payload)).toContain('"compute 12 * (3 + 4)"');
  // Nothing in the file makes a call.
  await expect(viewer.getByRole("button", { name: /^(Re-run with changes|Preview next call)$/ })).toHaveCount(
    0,
  );
  await expectAccessible(viewer, "an exported session, a call's payload");

  // The tree and the anatomy.
  await viewer.getByRole("tab", { name: "Tree" }).click();
  await expect(viewer.getByRole("region", { name: "Session tree" })).toContainText("2 branches");
  await viewer.getByRole("tab", { name: "Anatomy" }).click();
  await expect(viewer.getByRole("table", { name: "Tokens by category" })).toBeVisible();

  // The find box links to what it finds.
  await viewer.getByRole("searchbox", { name: "Find in facts and calls" }).fill("build 1234");
  await viewer.getByRole("link", { name: new RegExp(`^Fact ${notificationFact} · notification`) }).click();
  await expect(factRow(viewer, notificationFact, "notification")).toHaveAttribute("aria-selected", "true");

  expect(attempted).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();

  // Imported back into a fresh profile, it is the same session as its JSON export says.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await openPlayground(other);
  await other
    .getByLabel("Import a session file")
    .setInputFiles({ name: "session.html", mimeType: "text/html", buffer: Buffer.from(html) });
  await expect(sessionList(other).getByRole("button", { name: TITLE })).toHaveAttribute(
    "aria-current",
    "true",
  );
  expect(asSession(await exportAs(other, "Export as JSON"))).toEqual(asSession(json));
  await fresh.close();
});

test("an HTML page that is not a whole export is refused with its reason, and nothing stored changes", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "existing work");
  await expect(lastReply(page)).toContainText("existing work", { timeout: 15_000 });
  const importFile = (name: string, text: string) =>
    page
      .getByLabel("Import a session file")
      .setInputFiles({ name, mimeType: "text/html", buffer: Buffer.from(text) });

  await importFile("page.html", "<!doctype html><html><body><script>alert(1)</script></body></html>");
  await expect(page.getByRole("alert").filter({ hasText: "page.html" })).toContainText(
    "page.html is an HTML page but not a session exported by the playground: it holds no embedded session. Nothing was imported.",
  );
  await importFile(
    "cut.html",
    '<!doctype html><html><body><script type="application/json" id="pi-playground-session">{"format": "pi-playground-session", "entr',
  );
  await expect(page.getByRole("alert").filter({ hasText: "cut.html" })).toContainText(
    "cut.html is cut short: its embedded session has no end (the file was not saved whole). Nothing was imported.",
  );
  await expect(sessionList(page).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText(["existing work"]);
});
