import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { startFixtureServer, type Fixture } from "./fixtures/openai-fixture-server.mjs";
import { CONTEXT_DUMP_EXTENSION, PiProcess, piWorld, type PiWorld } from "./fixtures/pi-process.ts";
import { liveState as liveStateAt } from "./fixtures/live-api.ts";
import { startPlayground, type PlaygroundServer } from "./fixtures/playground-server.ts";
import { LATE_PLAYGROUND_PORT, LIVE_TOKEN, PI_FIXTURE_PORT } from "./ports.ts";
import { expect, expectAccessible, lastReply, openPlayground, rawPayload, test } from "./support.ts";

/**
 * A real pi coding agent (the pinned CLI, on a Node 22 from the registry, offline against a loopback
 * fixture) with the playground's extension, streaming its session to the playground as it works. Each
 * journey has a playground of its own, so the sessions its pi leaves on the server reach no other journey.
 */

let fixture: Fixture;
let world: PiWorld;
let playground: PlaygroundServer;
let BASE: string;

test.beforeAll(async () => {
  fixture = await startFixtureServer(PI_FIXTURE_PORT);
});

test.afterAll(async () => {
  await fixture.close();
});

test.beforeEach(async () => {
  fixture.requests.length = 0;
  world = piWorld(fixture.port);
  playground = await startPlayground(LATE_PLAYGROUND_PORT, { PI_PLAYGROUND_TOKEN: LIVE_TOKEN });
  BASE = playground.url;
});

test.afterEach(async ({ page }) => {
  // The page first: its live stream would otherwise be cut mid-chunk, which the browser reports as an error.
  await page.goto("about:blank");
  await playground.stop();
  world.remove();
});

const liveState = (request: APIRequestContext, sessionId: string) => liveStateAt(BASE, request, sessionId);

test("a real pi streams its session, calls and tool results to the playground", async ({ request }) => {
  test.setTimeout(120_000);
  const pi = new PiProcess({
    world,
    env: { PI_PLAYGROUND_URL: BASE, PI_PLAYGROUND_TOKEN: LIVE_TOKEN },
  });
  try {
    await pi.prompt("please read notes.txt");
    const entries = await pi.entries();
    const { sessionId } = await pi.command<{ sessionId: string }>({ type: "get_state" });

    await expect
      .poll(async () => (await liveState(request, sessionId))?.entries.length, { timeout: 10_000 })
      .toBe(entries.length);
    const state = await liveState(request, sessionId);
    expect(state?.entries).toEqual(entries);
    expect(state?.about.cwd).toBe(world.cwd);

    // Two calls: the one that asked for the tool, and the one that read its result.
    await expect.poll(async () => (await liveState(request, sessionId))?.calls.length).toBe(2);
    const calls = (await liveState(request, sessionId))?.calls ?? [];
    expect(fixture.requests).toHaveLength(2);
    calls.forEach((call, index) => {
      expect(call.payload.kept).toBe("all");
      expect(call.payload.kept === "all" && call.payload.value).toEqual(fixture.requests[index]?.body);
      expect(call.response?.status).toBe(200);
      expect(call.outcome.stopReason).toBe(index === 0 ? "toolUse" : "stop");
    });
    const roles = (call: (typeof calls)[number]) =>
      call.transcript.kept === "all" ? (call.transcript.value as { role: string }[]).map((m) => m.role) : [];
    expect(roles(calls[0]!)).toEqual(["system", "user"]);
    expect(roles(calls[1]!)).toEqual(["system", "user", "assistant", "toolResult"]);
    const toolResult = entries.find(
      (entry) => (entry as { message?: { role: string } }).message?.role === "toolResult",
    ) as { id: string; message: { content: { text: string }[]; isError: boolean } };
    expect(toolResult.message.isError).toBe(false);
    expect(toolResult.message.content[0]?.text).toContain("The build is green.");
    // Each call names the entry pi stored its reply in.
    const replyIds = entries
      .filter((entry) => (entry as { message?: { role: string } }).message?.role === "assistant")
      .map((entry) => (entry as { id: string }).id);
    expect(calls.map((call) => call.replyEntryId)).toEqual(replyIds);
  } finally {
    await pi.stop();
  }
});

const sessionList = (page: Page) =>
  page.getByRole("region", { name: "Sessions" }).getByRole("list", { name: "Session list" });

/** Every stored entry of a session, in order of creation, and its recorded call bodies (IndexedDB). */
async function stored(
  page: Page,
  sessionId: string,
): Promise<{ entries: unknown[]; bodies: { pi?: { transcript: { value?: unknown } } }[] }> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("pi-playground");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const range = IDBKeyRange.bound([id, -1], [id, Number.MAX_SAFE_INTEGER]);
    const all = <T>(store: string) =>
      new Promise<T[]>((resolve) => {
        const request = db.transaction(store, "readonly").objectStore(store).getAll(range);
        request.onsuccess = () => resolve(request.result as T[]);
      });
    const entries = (await all<{ entry: unknown }>("entries")).map((record) => record.entry);
    const bodies = await all<{ pi?: { transcript: { value?: unknown } } }>("callBodies");
    db.close();
    return { entries, bodies };
  }, sessionId);
}

/** Export the open session for pi, from its menu in the session list. */
async function exportForPi(page: Page): Promise<string> {
  const item = sessionList(page)
    .locator("li")
    .filter({ has: page.locator('button[aria-current="true"]') });
  await item.getByRole("button", { name: /^Actions for/ }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export for pi coding agent" }).click();
  // Unredacted: the file is compared with the one pi itself wrote.
  const dialog = page.getByRole("dialog", { name: /^Export/ });
  await dialog.getByRole("radio", { name: /^None/ }).check();
  await dialog.getByRole("button", { name: "Save" }).click();
  return readFile(await (await downloading).path(), "utf8");
}

test("a live pi in the page: its facts as they come, its calls with pi's transcript and exact payload, and its tool's result; it stays when pi exits and exports as pi's own file", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openPlayground(page, BASE);
  const dump = join(world.cwd, "..", "context-dump.jsonl");
  const pi = new PiProcess({
    world,
    extensions: [CONTEXT_DUMP_EXTENSION],
    env: { PI_PLAYGROUND_URL: BASE, PI_PLAYGROUND_TOKEN: LIVE_TOKEN, PI_TEST_CONTEXT_DUMP: dump },
  });
  try {
    await pi.prompt("please read notes.txt");
    const entries = await pi.entries();
    const { sessionId, sessionFile } = await pi.command<{ sessionId: string; sessionFile: string }>({
      type: "get_state",
    });

    // The session list has it, marked live, named by its folder and first prompt.
    const item = sessionList(page).getByRole("button", {
      name: /^live\s*pi · project · please read notes\.txt/,
    });
    await expect(item).toBeVisible();
    await item.click();
    const panel = page.getByRole("region", { name: "Live pi session" });
    await expect(panel).toContainText(`pi coding agent in ${world.cwd}`);
    // Read-only: pi writes the facts, so the page has no composer for it.
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveCount(0);

    // The tool call with its result, then the reply that read it.
    const toolCall = page.getByRole("region", { name: "Tool call read" });
    await expect(toolCall.getByLabel("Result of read")).toContainText("The build is green.");
    await expect(lastReply(page)).toContainText("The tool answered: The build is green.");
    // Every entry as pi has it.
    await expect.poll(async () => (await stored(page, `pi-${sessionId}`)).entries).toEqual(entries);
    await expectAccessible(page, "live pi session");

    // The calls, each with pi's transcript and the exact payload the provider received.
    await page.getByRole("button", { name: "Inspector", exact: true }).click();
    await page.getByRole("tab", { name: "Calls" }).click();
    const list = page.getByRole("listbox", { name: "Recorded calls" });
    await expect(list.getByRole("option")).toHaveCount(2);
    const seen = readFileSync(dump, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown[]);
    expect(seen).toHaveLength(2);
    const bodies = (await stored(page, `pi-${sessionId}`)).bodies;
    for (const [index, received] of fixture.requests.entries()) {
      await list.getByRole("option", { name: new RegExp(`^Call #${index + 1} `) }).click();
      const call = page.getByRole("article", { name: `Call ${index + 1}` });
      await call.getByRole("tab", { name: "pi's transcript" }).click();
      await expect(
        call.getByRole("status").filter({ hasText: "no extension changed what pi sent" }),
      ).toBeVisible();
      await expect(call.getByRole("list", { name: "pi's transcript" }).getByRole("listitem")).toHaveCount(
        seen[index]?.length ?? -1,
      );
      expect(bodies[index]?.pi?.transcript.value).toEqual(seen[index]);
      await call.getByRole("tab", { name: "Provider payload" }).click();
      const shown = JSON.parse(await rawPayload(call)) as unknown;
      expect(shown).toEqual(received.body);
    }
    await expectAccessible(page, "live pi call, payload");

    // pi exits: the session stays, now an ordinary one, and exports as pi's own file, byte for byte.
    await pi.stop();
    await expect(panel).toContainText("pi has ended", { timeout: 10_000 });
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(await exportForPi(page)).toBe(readFileSync(sessionFile, "utf8"));
  } finally {
    await pi.stop();
  }
});
