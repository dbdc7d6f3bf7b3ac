import { describe, expect, it } from "vitest";
import { chainEntries } from "../messages/entries.ts";
import { createUserMessage } from "../messages/factories.ts";
import { MemorySessionStore } from "../storage/memory-store.ts";
import { SCHEMA_VERSION } from "../storage/records.ts";
import { NEW_SESSION_TITLE } from "../storage/session-store.ts";
import { createSystemFact, newSession, storeNewSession } from "./new-session.ts";
import { defaultSettings } from "./session-settings.ts";
import { DEMO_TOOL_DECLARATIONS } from "./tools/demo-tool-declarations.ts";

const at = { id: "s1", now: 1_000 };

describe("newSession", () => {
  it("starts from a system message with the prompt and the playground's tools, untitled, at revision 0", () => {
    const { meta, entries } = newSession({ systemPrompt: "Be terse." }, at);
    expect(entries).toHaveLength(1);
    const [first] = entries;
    const message = first?.type === "message" ? first.message : undefined;
    expect(message?.role).toBe("system");
    expect(message?.role === "system" && message.content).toBe("Be terse.");
    expect(message?.role === "system" && message.toolsAdded?.map((tool) => tool.name)).toEqual(
      DEMO_TOOL_DECLARATIONS.map((tool) => tool.name),
    );
    expect(meta).toEqual({
      schema: SCHEMA_VERSION,
      id: "s1",
      title: NEW_SESSION_TITLE,
      titleIsCustom: false,
      createdAt: 1_000,
      updatedAt: 1_000,
      messageCount: 1,
      nextSeq: 1,
      revision: 0,
      leafId: first?.id,
      settings: defaultSettings(),
    });
  });

  it("chains the given facts from the root and ends at the last one", () => {
    const facts = [createSystemFact(), createUserMessage("hello", 1)];
    const { meta, entries } = newSession({ facts }, at);
    expect(entries.map((entry) => entry.parentId)).toEqual([null, entries[0]?.id]);
    expect(meta.leafId).toBe(entries[1]?.id);
    expect(meta.messageCount).toBe(2);
    expect(meta.nextSeq).toBe(2);
  });

  it("keeps a given tree and its leaf, a null leaf included", () => {
    const tree = chainEntries(
      [createSystemFact(), createUserMessage("a", 1), createUserMessage("b", 2)],
      null,
    );
    expect(newSession({ entries: tree, leafId: tree[1]?.id }, at).meta.leafId).toBe(tree[1]?.id);
    expect(newSession({ entries: tree, leafId: null }, at).meta.leafId).toBeNull();
    expect(newSession({ entries: tree }, at).entries).toBe(tree);
  });

  it("counts a given title as the session's own name unless told otherwise", () => {
    expect(newSession({ title: "Trip" }, at).meta).toMatchObject({ title: "Trip", titleIsCustom: true });
    expect(newSession({ title: "Trip", titleIsCustom: false }, at).meta.titleIsCustom).toBe(false);
  });

  it("records where a fork came from and a pi file's header only when there are some", () => {
    const plain = newSession({}, at).meta;
    expect("forkedFrom" in plain || "piHeader" in plain).toBe(false);
    const forkedFrom = { sessionId: "s0", title: "Earlier", factIndex: 2 };
    const { meta } = newSession({ forkedFrom, piHeader: { type: "session" } }, at);
    expect(meta.forkedFrom).toEqual(forkedFrom);
    expect(meta.piHeader).toEqual({ type: "session" });
  });
});

describe("storeNewSession", () => {
  it("creates the session's records and returns them with the metadata the store wrote", async () => {
    const store = new MemorySessionStore();
    const { meta, entries, stored } = await storeNewSession(store, { title: "Stored" });
    expect(stored.meta).toEqual(meta);
    expect(stored.records.map((record) => record.entry)).toEqual(entries);
    expect((await store.loadSession(meta.id))?.meta.title).toBe("Stored");
  });

  it("opens with the records it would have had when creating them fails, for the writer to store later", async () => {
    const store = new MemorySessionStore();
    store.createSession = () => Promise.reject(new Error("no room"));
    const { meta, entries, stored } = await storeNewSession(store, { title: "Not yet" });
    expect(stored.meta).toBeUndefined();
    expect(meta.title).toBe("Not yet");
    expect(stored.records).toEqual(
      entries.map((entry, seq) => ({ schema: SCHEMA_VERSION, sessionId: meta.id, seq, rev: 0, entry })),
    );
  });
});
