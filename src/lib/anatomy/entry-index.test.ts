import { describe, expect, it } from "vitest";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { EntryIndex } from "./entry-index.ts";

/** A trunk of three facts (a question, a notification, a follow-up) and a side branch from the question. */
function session() {
  const trunk = chainEntries(
    [createUserMessage("a", 1), createNotification("n", "info", 2), createUserMessage("c", 3)],
    null,
  );
  const [question, notification, followUp] = trunk.map((entry) => entry.id);
  const side = chainEntries([createUserMessage("b", 4)], question ?? null, (id) =>
    trunk.some((entry) => entry.id === id),
  );
  return {
    entries: [...trunk, ...side] as SessionEntry[],
    question: question ?? "",
    notification: notification ?? "",
    followUp: followUp ?? "",
    side: side[0]?.id ?? "",
  };
}

describe("EntryIndex", () => {
  it("finds entries by id, with the role of the fact each stands for", () => {
    const { entries, question, notification } = session();
    const index = new EntryIndex(entries);
    expect(index.entry(question)).toBe(entries[0]);
    expect(index.roleOf(question)).toBe("user");
    expect(index.roleOf(notification)).toBe("notification");
    expect(index.entry(null)).toBeUndefined();
    expect(index.roleOf("gone")).toBeUndefined();
    expect(index.sources([notification, null])).toEqual([
      { entryId: notification, role: "notification" },
      { entryId: null, role: undefined },
    ]);
  });

  it("tells whether an entry lies on the path from the root to another", () => {
    const { entries, question, followUp, side } = session();
    const index = new EntryIndex(entries);
    expect(index.isOnPathTo(question, side)).toBe(true);
    expect(index.isOnPathTo(side, side)).toBe(true);
    expect(index.isOnPathTo(followUp, side)).toBe(false);
    expect(index.isOnPathTo(question, null)).toBe(false);
  });

  it("indexes a live list again once it is replaced", () => {
    const { entries, side } = session();
    let live = entries.filter((entry) => entry.id !== side);
    const index = new EntryIndex(() => live);
    expect(index.entry(side)).toBeUndefined();
    live = entries;
    expect(index.entry(side)?.id).toBe(side);
    expect(index.entries).toBe(entries);
  });
});
