import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import type { CallRecord } from "../storage/records.ts";
import { syntheticSession, system } from "./anatomy.test-support.ts";
import type { KeptBody } from "./call-body.ts";
import { changesBetweenCalls, entryChange } from "./call-changes.ts";
import { EntryIndex } from "./entry-index.ts";

/** The synthetic session's calls and bodies, each by number, with an index of its entries. */
function synthetic() {
  const session = syntheticSession();
  return {
    session,
    index: new EntryIndex(() => session.entries),
    call: (seq: number) => session.calls[seq] as CallRecord,
    body: (seq: number) => session.bodies[seq] as KeptBody,
  };
}

describe("changesBetweenCalls", () => {
  it("finds nothing between two calls of one conversation", () => {
    const { index, call, body } = synthetic();
    expect(changesBetweenCalls({ call: call(0), body: body(0) }, call(1), body(1), index)).toEqual([]);
  });

  it("says when a call continues from a point the previous reply is not on", () => {
    const { session, index, call, body } = synthetic();
    const [side] = chainEntries([createUserMessage("elsewhere", 9)], session.id(1));
    if (!side) throw new Error("no entry");
    session.entries.push(side);
    const moved = { ...call(2), leafId: side.id };
    expect(changesBetweenCalls({ call: call(1), body: body(1) }, moved, body(2), index)).toEqual([
      {
        kind: "branch",
        text: "continued from another point of the session (a fork or a return)",
        entryId: side.id,
      },
    ]);
  });

  it("tells tool changes from prompt edits, naming the system message's fact", () => {
    const { session, index, call, body } = synthetic();
    const withTool: KeptBody = {
      ...body(1),
      messages: [system("S".repeat(400), ["calculate"]), ...body(1).messages.slice(1)],
    };
    expect(changesBetweenCalls({ call: call(0), body: body(0) }, call(1), withTool, index)).toEqual([
      { kind: "tools", text: "tool definitions changed", entryId: session.id(0) },
    ]);
  });

  it("reads nothing of the bodies when either was not kept", () => {
    const { index, call } = synthetic();
    const unknown = { kind: "unknown", reason: "not kept" } as const;
    const thinking = { ...call(1), options: { reasoning: "high" } };
    expect(changesBetweenCalls({ call: call(0), body: unknown }, thinking, unknown, index)).toEqual([
      { kind: "thinking", text: "thinking from off to high" },
    ]);
  });

  it("says which policy facts stopped or started being sent while on both paths", () => {
    const entries: SessionEntry[] = chainEntries(
      [createUserMessage("a", 1), createNotification("n", "info", 2), createUserMessage("c", 3)],
      null,
    );
    const [question, notification, followUp] = entries.map((entry) => entry.id);
    const index = new EntryIndex(entries);
    const { call } = synthetic();
    const at = { ...call(1), leafId: followUp ?? null };
    const messages = entries.map((entry) => (entry.type === "message" ? entry.message : undefined));
    const sent: KeptBody = {
      kind: "kept",
      messages: messages as Message[],
      sources: [question ?? null, notification ?? null, followUp ?? null],
    };
    const hidden: KeptBody = {
      kind: "kept",
      messages: [messages[0], messages[2]] as Message[],
      sources: [question ?? null, followUp ?? null],
    };
    expect(changesBetweenCalls({ call: at, body: sent }, at, hidden, index)).toEqual([
      { kind: "policy", text: "notification facts no longer sent", entryId: notification },
    ]);
    expect(changesBetweenCalls({ call: at, body: hidden }, at, sent, index)).toEqual([
      { kind: "policy", text: "notification facts now sent as user text", entryId: notification },
    ]);
  });
});

describe("entryChange", () => {
  const base = { parentId: null, timestamp: new Date(0).toISOString() };

  it("describes the entries that mark the timeline", () => {
    const [fact] = chainEntries([createUserMessage("a", 1)], null);
    const index = new EntryIndex(fact ? [fact] : []);
    const compaction: SessionEntry = {
      ...base,
      type: "compaction",
      id: "cmp",
      summary: "s",
      firstKeptEntryId: "x",
      tokensBefore: 4_600,
    };
    const edit: SessionEntry = {
      ...base,
      type: "context_edit",
      id: "edit",
      targetId: fact?.id ?? "",
      replacement: null,
    };
    expect(entryChange(compaction, index)).toEqual({
      kind: "compaction",
      text: "compacted: 4,600 tokens before",
      entryId: "cmp",
    });
    expect(entryChange(edit, index)).toEqual({
      kind: "contextEdit",
      text: "user left out by an edit",
      entryId: fact?.id,
    });
    expect(fact && entryChange(fact, index)).toBeUndefined();
  });
});
