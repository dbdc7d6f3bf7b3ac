import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatSession } from "../agent/chat-session.svelte.ts";
import type { SessionDeps } from "../agent/session-deps.ts";
import { createSystemFact } from "../agent/new-session.ts";
import { Transcript } from "../agent/transcript.svelte.ts";
import { indexNow } from "../agent/transcript-index.ts";
import type { StreamRouter } from "../agent/stream-route.ts";
import { convertToLlm } from "../messages/convert.ts";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { createCustomMessage, createUserMessage } from "../messages/factories.ts";
import { ModelCatalog } from "../models/model-catalog.svelte.ts";
import {
  piMessages,
  piSession,
  reply,
  user,
  writePiTreeFiles,
  type PiTreeFile,
} from "../model-view/pi-sessions.test-support.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { Notices } from "../notices/notices.svelte.ts";
import { FakeLocks } from "../storage/fake-locks.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { SessionLocks, TabChannel } from "../storage/tab-sync.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { exportSession, type ExportKind } from "./export-format.ts";
import { parseSessionFile } from "./import-file.ts";
import { snapshotOf } from "./export-snapshot.ts";
import { importCalls, planImport } from "./import-session.ts";
import { POSITION_CUSTOM_TYPE } from "./pi-session-file.ts";

/**
 * pi session files both ways, checked against pi coding agent 1.6.0's own session code: files written
 * by pi's SessionManager import with every entry, the leaf pi opens at, and the context pi builds; sessions
 * built in the playground export to files pi opens with the context the playground shows; and a pi file
 * comes back out of the playground byte for byte.
 */

// --- a session runtime in memory, whose stubbed proxy answers each request with a short reply ------------

function sse(events: unknown[]): Response {
  const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

let replies = 0;
/** The `context.messages` of each request the proxy received. */
let requests: unknown[][] = [];

beforeEach(() => {
  replies = 0;
  requests = [];
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith("/api/session")) return Response.json({ token: "t", maxBodyBytes: 1_000_000 });
    const body = JSON.parse(await new Response(init?.body).text()) as { context: { messages: unknown[] } };
    requests.push(body.context.messages);
    replies++;
    return sse([
      { type: "start" },
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: `reply ${replies}` },
      { type: "text_end", contentIndex: 0 },
      { type: "done", reason: "stop", usage: zeroUsage() },
    ]);
  });
});
afterEach(() => vi.unstubAllGlobals());

const router: StreamRouter = {
  route: async () => ({ proxyUrl: "http://proxy.test", authToken: "t", settled: () => undefined }),
};
let channels = 0;

function runtime(): { store: MemorySessionStore; deps: SessionDeps } {
  const store = new MemorySessionStore();
  return {
    store,
    deps: {
      store,
      catalog: new ModelCatalog(),
      router,
      channel: new TabChannel(`pi-files-${process.pid}-${channels++}`),
      locks: new SessionLocks(new FakeLocks().asLockManager()),
      notices: new Notices(),
      tabId: "tab",
    },
  };
}

/** What pi sends for a file it opens: its SessionManager's context, through its convertToLlm. */
function piModelView(path: string) {
  const manager = piSession.SessionManager.open(path);
  const context = manager.buildSessionContext();
  return { manager, context, messages: piMessages.convertToLlm(context.messages) };
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

const dir = mkdtempSync(join(tmpdir(), "pi-playground-files-"));
/** Every tree of the reference set, as a file pi's SessionManager wrote. */
const files: PiTreeFile[] = await writePiTreeFiles(dir);

function fileNamed(name: string): PiTreeFile {
  const file = files.find((candidate) => candidate.name === name);
  if (!file) throw new Error(`no tree named "${name}"`);
  return file;
}

// --- (a) import ------------------------------------------------------------------------------------------

describe("importing files pi wrote, against pi's SessionManager", () => {
  it("has a file for every tree", () => expect(files.length).toBeGreaterThanOrEqual(10));

  it.each(files)("$name: every entry, pi's leaf, header and name", (file) => {
    const text = readFileSync(file.path, "utf8");
    const parsed = parseSessionFile(text, basename(file.path));
    const { manager } = piModelView(file.path);
    expect(parsed.source).toBe("pi-session");
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries.map(entryForFile)).toEqual(manager.getEntries());
    expect(parsed.leafId).toBe(manager.getLeafId());
    expect(parsed.piHeader).toEqual(manager.getHeader());
    expect(parsed.title).toBe(manager.getSessionName() ?? `Imported: ${basename(file.path, ".jsonl")}`);
  });

  it.each(files)(
    "$name: the imported session's model view is pi's context through pi's convertToLlm",
    async (file) => {
      const parsed = parseSessionFile(readFileSync(file.path, "utf8"), basename(file.path));
      const pi = piModelView(file.path);
      // The projection alone, and through the playground's convertToLlm.
      const projection = projectSession(pathTo(parsed.entries, parsed.leafId));
      expect(projection.context).toEqual(pi.context.messages);
      expect(convertToLlm(projection.context)).toEqual(pi.messages);

      // And as a session of the playground, stored and opened again: its model view, model and thinking.
      const { store, deps } = runtime();
      const plan = planImport(parsed, { hasModel: () => true, systemFact: () => createSystemFact() });
      const created = await ChatSession.create(deps, plan.init);
      await created.close();
      const session = await ChatSession.open(deps, created.id);
      if (!session) throw new Error("not stored");
      expect(session.entries.map(entryForFile)).toEqual(pi.manager.getEntries());
      expect(session.leafId).toBe(pi.manager.getLeafId());
      expect(session.modelView.messages).toEqual(pi.messages);
      const model = pi.context.model as { provider: string; modelId: string } | null;
      if (model) expect(session.settings.model).toEqual({ provider: model.provider, id: model.modelId });
      expect(session.settings.thinkingLevel).toBe(pi.context.thinkingLevel);
      expect((await store.getMeta(session.id))?.piHeader).toEqual(pi.manager.getHeader());
      await session.close();
    },
  );

  it("the next request is pi's context, then the Agent's declaration of this playground's tools, then the prompt", async () => {
    const file = fileNamed("an abandoned branch and a branch summary");
    const parsed = parseSessionFile(readFileSync(file.path, "utf8"), basename(file.path));
    const pi = piModelView(file.path);
    const { deps } = runtime();
    const session = await ChatSession.create(
      deps,
      planImport(parsed, { hasModel: () => false, systemFact: () => createSystemFact() }).init,
    );
    await session.send("next question");
    const [request] = requests;
    if (!request) throw new Error("no request");
    expect(request.slice(0, pi.messages.length)).toEqual(json(pi.messages));
    const rest = request.slice(pi.messages.length);
    expect(rest).toHaveLength(2);
    // pi's file declared no tools; the Agent declares the playground's before the prompt, as pi's does.
    expect(rest[0]).toMatchObject({ role: "system", content: "" });
    expect((rest[0] as { toolsAdded?: { name: string }[] }).toolsAdded?.map((tool) => tool.name)).toEqual([
      "current_time",
      "calculate",
      "save_note",
    ]);
    expect(rest[1]).toMatchObject({ role: "user", content: [{ type: "text", text: "next question" }] });
    await session.close();
  });

  it("keeps the session's default model, and says so, when the file's model is not available here", () => {
    const file = fileNamed("a straight conversation with model and thinking changes");
    const parsed = parseSessionFile(readFileSync(file.path, "utf8"), basename(file.path));
    const plan = planImport(parsed, { hasModel: () => false, systemFact: () => createSystemFact() });
    expect(plan.init.settings?.model).toEqual({ provider: "mirror", id: "mirror" });
    expect(plan.init.settings?.thinkingLevel).toBe("high");
    expect(plan.notes).toEqual([
      "the file's model, anthropic/claude-test, is not available here: the session uses mirror/mirror (pick another in the model picker)",
    ]);
  });
});

// --- (c) round trip: pi → playground → pi ----------------------------------------------------------------

describe("a pi file through the playground and back", () => {
  it.each(files)("$name: the same file, byte for byte", async (file) => {
    const original = readFileSync(file.path, "utf8");
    const { store, deps } = runtime();
    const parsed = parseSessionFile(original, basename(file.path));
    const session = await ChatSession.create(
      deps,
      planImport(parsed, { hasModel: () => true, systemFact: () => createSystemFact() }).init,
    );
    await session.close();
    // From storage, as a session that is not open is exported.
    const snapshot = await snapshotOf(store, session.id, undefined);
    if (!snapshot) throw new Error("not stored");
    const exported = exportSession(snapshot, "pi");
    expect(exported.notes).toEqual([]);
    expect(piSession.parseSessionEntries(exported.text)).toEqual(piSession.parseSessionEntries(original));
    expect(exported.text).toBe(original);
  });
});

// --- (b) export: sessions built in the playground, opened by pi -------------------------------------------

/**
 * A tree built with the playground's own runtime: a compaction with a kept tail, a context edit, an
 * abandoned branch, and the leaf moved back to that branch's tip (so it is not the last entry).
 */
function playgroundTree(): { entries: SessionEntry[]; leafId: string | null; tips: string[] } {
  const transcript = new Transcript(indexNow([], null));
  transcript.append([createSystemFact(), createUserMessage("first question", 1), reply("first answer")]);
  const [, question, answer] = transcript.entries;
  if (!question || !answer) throw new Error("no entries");
  transcript.append([createUserMessage("second question", 2), reply("second answer")]);
  const kept = transcript.entries.at(-2);
  if (!kept) throw new Error("no entries");
  transcript.appendEntry({
    type: "compaction",
    summary: "The user asked a first question.",
    firstKeptEntryId: kept.id,
    tokensBefore: 4_000,
  });
  transcript.append([createUserMessage("after the compaction", 3), reply("answer after")]);
  transcript.appendEntry({
    type: "context_edit",
    targetId: kept.id,
    replacement: { content: "second, edited" },
  });
  const abandonedTip = transcript.leafId;
  // Back to the first answer: a branch with a custom message and an omitted reply.
  transcript.moveLeaf(answer.id);
  transcript.append([
    createCustomMessage("reminder", "remember the milk", true, undefined, 4),
    createUserMessage("another way", 5),
    reply("failed", { stopReason: "error", errorMessage: "overloaded" }),
  ]);
  const failed = transcript.leafId;
  if (!failed) throw new Error("no leaf");
  transcript.appendEntry({ type: "context_edit", targetId: failed, replacement: null });
  transcript.appendEntry({ type: "label", targetId: question.id, label: "start" });
  const otherTip = transcript.leafId;
  if (!abandonedTip || !otherTip) throw new Error("no tips");
  transcript.moveLeaf(abandonedTip);
  return { entries: [...transcript.entries], leafId: transcript.leafId, tips: [abandonedTip, otherTip] };
}

async function exportToPi(session: ChatSession, store: MemorySessionStore, name: string) {
  const snapshot = await snapshotOf(store, session.id, session);
  if (!snapshot) throw new Error("no snapshot");
  const { text, notes } = exportSession(snapshot, "pi");
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, text);
  return { path, text, notes };
}

describe("exporting sessions built in the playground, opened by pi's SessionManager", () => {
  it("pi opens at the session's leaf (not the last entry) and builds the playground's model view", async () => {
    const built = playgroundTree();
    const { store, deps } = runtime();
    const session = await ChatSession.create(deps, { title: "Built here", ...built });
    expect(session.leafId).toBe(built.leafId);
    // The compaction's summary, the kept tail (its first entry edited), and what came after.
    const view = session.modelView.messages;
    expect(view.map((message) => message.role)).toEqual(["user", "user", "assistant", "user", "assistant"]);
    expect(view[1]).toMatchObject({ role: "user", content: "second, edited" });

    const exported = await exportToPi(session, store, "built-here");
    const pi = piModelView(exported.path);
    expect(pi.messages).toEqual(view);
    expect(pi.context.model).toEqual({ provider: "anthropic", modelId: "claude-test" });
    // Every entry as the playground holds it, in its order; then the session's name, hanging from the leaf
    // as pi's own rename appends it, so pi opens right there.
    const written = pi.manager.getEntries() as Record<string, unknown>[];
    expect(written.slice(0, -1)).toEqual(session.entries.map(entryForFile));
    const name = written.at(-1);
    expect(name).toMatchObject({ type: "session_info", name: "Built here", parentId: built.leafId });
    expect(pi.manager.getLeafId()).toBe(name?.id);
    expect(pi.manager.getSessionName()).toBe("Built here");
    await session.close();
  });

  it("a leaf with children of its own: pi opens there, at the position entry hanging from it", async () => {
    const built = playgroundTree();
    const { store, deps } = runtime();
    const interior = built.entries[2]?.id ?? null; // the first answer, where the two branches part
    const session = await ChatSession.create(deps, { ...built, leafId: interior });
    const exported = await exportToPi(session, store, "interior-leaf");
    const pi = piModelView(exported.path);
    expect(pi.manager.getEntries().at(-1)).toMatchObject({
      type: "custom",
      customType: POSITION_CUSTOM_TYPE,
      parentId: interior,
    });
    expect(pi.manager.getBranch().at(-2)?.id).toBe(interior);
    expect(pi.messages).toEqual(session.modelView.messages);
    await session.close();
  });

  it("after a run in the playground, pi continues the exported file where the playground left it", async () => {
    const built = playgroundTree();
    const { store, deps } = runtime();
    const session = await ChatSession.create(deps, { ...built, leafId: built.tips[1] ?? null });
    await session.send("one more");
    await session.saveNow();
    const exported = await exportToPi(session, store, "continued");
    const pi = piModelView(exported.path);
    expect(pi.manager.getLeafId()).toBe(session.leafId);
    expect(pi.messages).toEqual(session.modelView.messages);
    // The failed attempt the playground left out (a context edit) is left out by pi too.
    expect(JSON.stringify(pi.messages)).not.toContain("overloaded");

    // pi continues it: its next entry hangs from the playground's last one, and its context grows by it.
    const message = user("continued in pi");
    const next = pi.manager.appendMessage(message);
    const reopened = piModelView(exported.path);
    expect((reopened.manager.getEntries().at(-1) as { parentId: string }).parentId).toBe(session.leafId);
    expect(reopened.manager.getLeafId()).toBe(next);
    expect(reopened.messages).toEqual([...session.modelView.messages, ...piMessages.convertToLlm([message])]);
    await session.close();
  });
});

// --- the playground's own format: the tree and the recorded calls ----------------------------------------

describe("the playground's own format carries the tree and the recorded calls", () => {
  it.each(["jsonl", "json"] as const)(
    "%s: entries, leaf, settings and calls come back as they were",
    async (kind: ExportKind) => {
      const built = playgroundTree();
      const { store, deps } = runtime();
      const session = await ChatSession.create(deps, {
        title: "Calls kept",
        ...built,
        leafId: built.tips[1] ?? null,
      });
      await session.send("one");
      await session.send("two");
      await session.saveNow();
      // Calls are stored once the reply is in the chat, a moment after the run ends.
      await vi.waitFor(async () => expect((await store.listCalls(session.id)).calls).toHaveLength(2));
      const calls = (await store.listCalls(session.id)).calls;
      const snapshot = await snapshotOf(store, session.id, session);
      if (!snapshot) throw new Error("no snapshot");
      const { text } = exportSession(snapshot, kind);

      const parsed = parseSessionFile(text, `calls.${kind}`);
      expect(parsed.problems).toEqual([]);
      const other = runtime();
      const plan = planImport(parsed, { hasModel: () => true, systemFact: () => createSystemFact() });
      const imported = await ChatSession.create(other.deps, plan.init);
      const meta = await importCalls(other.store, imported.id, parsed.calls);
      expect(meta?.nextCallSeq).toBe(2);
      expect(imported.entries).toEqual(session.entries);
      expect(imported.leafId).toBe(session.leafId);
      expect(imported.settings).toEqual(session.settings);
      expect(imported.meta.title).toBe("Calls kept");
      expect(imported.modelView.messages).toEqual(session.modelView.messages);
      const strip = ({ sessionId: _s, ...rest }: { sessionId: string }) => rest;
      const importedCalls = (await other.store.listCalls(imported.id)).calls;
      expect(importedCalls.map(strip)).toEqual(calls.map(strip));
      for (const call of calls) {
        const before = await store.readCallBody(session.id, call.seq);
        const after = await other.store.readCallBody(imported.id, call.seq);
        expect(after && strip(after)).toEqual(before && strip(before));
      }
      await session.close();
      await imported.close();
    },
  );
});
