import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/session-settings.ts";
import { messageOf, pathTo } from "../messages/entries.ts";
import { createUserMessage } from "../messages/factories.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { SCHEMA_VERSION, type NewCall } from "../storage/records.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { parseSessionFile } from "./import-file.ts";
import { importCalls, importNotice, planImport, settingsFromPath } from "./import-session.ts";

const system = { role: "system" as const, content: "the playground's prompt", timestamp: 0 };
const at = "2026-01-01T00:00:00.000Z";
const line = (value: unknown) => JSON.stringify(value);
const reply = (provider: string, model: string) => ({
  role: "assistant",
  content: [{ type: "text", text: "a" }],
  api: "x",
  provider,
  model,
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp: 2,
});

function piFile(...entries: unknown[]): string {
  return [{ type: "session", version: 3, id: "s", timestamp: at, cwd: "/repo" }, ...entries]
    .map(line)
    .join("\n");
}

const deps = (available: string[]) => ({
  hasModel: (ref: { provider: string; id: string }) => available.includes(`${ref.provider}/${ref.id}`),
  systemFact: () => system,
});

describe("planning an import", () => {
  it("takes the model and thinking level the leaf's path ends with, where the model is available", () => {
    const parsed = parseSessionFile(
      piFile(
        { type: "message", id: "a", parentId: null, timestamp: at, message: createUserMessage("q", 1) },
        { type: "message", id: "b", parentId: "a", timestamp: at, message: reply("anthropic", "claude-x") },
        { type: "model_change", id: "c", parentId: "b", timestamp: at, provider: "openai", modelId: "gpt-x" },
        { type: "thinking_level_change", id: "d", parentId: "c", timestamp: at, thinkingLevel: "medium" },
        // A branch that changes them again, left behind: not on the leaf's path.
        { type: "model_change", id: "e", parentId: "b", timestamp: at, provider: "google", modelId: "g" },
        { type: "thinking_level_change", id: "f", parentId: "e", timestamp: at, thinkingLevel: "high" },
        { type: "message", id: "g", parentId: "d", timestamp: at, message: createUserMessage("leaf", 3) },
      ),
      "p.jsonl",
    );
    const applied = planImport(parsed, deps(["openai/gpt-x", "google/g"]));
    expect(applied.init.settings?.model).toEqual({ provider: "openai", id: "gpt-x" });
    expect(applied.init.settings?.thinkingLevel).toBe("medium");
    expect(applied.notes).toEqual([]);
    expect(applied.init.piHeader).toMatchObject({ id: "s" });
    expect(applied.init.leafId).toBe("g");

    const missing = planImport(parsed, deps([]));
    expect(missing.init.settings?.model).toEqual(defaultSettings().model);
    expect(missing.init.settings?.thinkingLevel).toBe("medium");
    expect(missing.notes).toEqual([
      "the file's model, openai/gpt-x, is not available here: the session uses mirror/mirror (pick another in the model picker)",
    ]);
    expect(importNotice("P", missing.notes)).toBe(
      "Imported “P”: the file's model, openai/gpt-x, is not available here: the session uses mirror/mirror (pick another in the model picker).",
    );
  });

  it("takes the path's end as read where the file was read, and projects the path itself only without it", () => {
    const parsed = parseSessionFile(
      piFile(
        { type: "message", id: "a", parentId: null, timestamp: at, message: createUserMessage("q", 1) },
        { type: "model_change", id: "b", parentId: "a", timestamp: at, provider: "openai", modelId: "gpt-x" },
      ),
      "p.jsonl",
    );
    expect(parsed.pathEnd).toEqual({ model: { provider: "openai", modelId: "gpt-x" }, thinkingLevel: "off" });
    const available = deps(["openai/gpt-x", "google/g"]);
    // The page does not walk the path again: what the reader found is what applies.
    const told = {
      ...parsed,
      pathEnd: { model: { provider: "google", modelId: "g" }, thinkingLevel: "low" },
    };
    expect(planImport(told, available).init.settings).toMatchObject({
      model: { provider: "google", id: "g" },
      thinkingLevel: "low",
    });
    const { pathEnd: _found, ...withoutEnd } = parsed;
    expect(planImport(withoutEnd, available).init.settings?.model).toEqual({
      provider: "openai",
      id: "gpt-x",
    });
  });

  it("keeps the thinking level when the file's is not one pi-ai knows, and says so", () => {
    const result = settingsFromPath(defaultSettings(), null, "ludicrous", () => true);
    expect(result.settings).toEqual(defaultSettings());
    expect(result.notes).toEqual([
      'the file\'s thinking level, "ludicrous", is not one this version knows: the session uses "off"',
    ]);
  });

  it("puts the playground's system message first in a flat file that has none, and nowhere else", () => {
    const flat = parseSessionFile(JSON.stringify([createUserMessage("hello", 1)]), "old.json");
    const plan = planImport(flat, deps([]));
    const entries = plan.init.entries ?? [];
    expect(pathTo(entries, plan.init.leafId).map(messageOf)).toEqual([system, createUserMessage("hello", 1)]);
    expect(plan.init.titleIsCustom).toBe(false);

    const pi = planImport(
      parseSessionFile(
        piFile({
          type: "message",
          id: "a",
          parentId: null,
          timestamp: at,
          message: createUserMessage("q", 1),
        }),
        "p.jsonl",
      ),
      deps([]),
    );
    expect(pi.init.entries?.map(messageOf)).toEqual([createUserMessage("q", 1)]);
  });
});

describe("importing recorded calls", () => {
  it("stores them in order under the new session, numbered from 0", async () => {
    const store = new MemorySessionStore();
    await store.createSession(
      {
        schema: SCHEMA_VERSION,
        id: "s",
        title: "t",
        titleIsCustom: true,
        createdAt: 0,
        updatedAt: 0,
        messageCount: 0,
        nextSeq: 0,
        revision: 0,
        leafId: null,
        settings: {},
      },
      [],
    );
    const call = (id: string): NewCall => ({
      summary: {
        id,
        startedAt: 1,
        provider: "mirror",
        modelId: "mirror",
        api: "mirror",
        options: {},
        messageCount: 1,
        leafId: null,
        outcome: { stopReason: "stop", usage: zeroUsage() },
        timing: { durationMs: 1 },
        capture: { messages: "all", payload: "none" },
      },
      body: {
        messages: { kept: "all", value: [], bytes: 10 },
        sources: [],
        payload: { kept: "none", bytes: 0, reason: "r" },
      },
    });
    const meta = await importCalls(store, "s", [call("one"), call("two")]);
    expect(meta).toMatchObject({ nextCallSeq: 2, callBytes: 20 });
    expect((await store.listCalls("s")).calls.map((recorded) => [recorded.seq, recorded.id])).toEqual([
      [0, "one"],
      [1, "two"],
    ]);
    expect(await importCalls(store, "s", [])).toBeUndefined();
  });
});
