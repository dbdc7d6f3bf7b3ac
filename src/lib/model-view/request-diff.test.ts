import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { countEntries, diffRequests } from "./request-diff.ts";

const user = (text: string, timestamp: number): Message => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp,
});

describe("diffRequests", () => {
  const a = user("a", 1);
  const b = user("b", 2);
  const c = user("c", 3);

  it("reports nothing for equal lists, even when rebuilt", () => {
    expect(diffRequests([a, b], [a, b])).toEqual({ unchanged: 2, commonPrefix: 2, entries: [] });
    expect(diffRequests([a, b], [user("a", 1), user("b", 2)])).toEqual({
      unchanged: 2,
      commonPrefix: 2,
      entries: [],
    });
  });

  it("reports what was appended since", () => {
    expect(diffRequests([a], [a, b, c])).toEqual({
      unchanged: 1,
      commonPrefix: 1,
      entries: [
        { kind: "added", after: b, afterIndex: 1 },
        { kind: "added", after: c, afterIndex: 2 },
      ],
    });
  });

  it("reports a message that disappeared (a policy switched to hidden)", () => {
    expect(diffRequests([a, b, c], [a, c])).toEqual({
      unchanged: 2,
      commonPrefix: 1,
      entries: [{ kind: "removed", before: b, beforeIndex: 1 }],
    });
  });

  it("pairs a message whose content changed by role and timestamp", () => {
    const decided = user("b, approved", 2);
    expect(diffRequests([a, b, c], [a, decided, c])).toEqual({
      unchanged: 2,
      commonPrefix: 1,
      entries: [{ kind: "changed", before: b, after: decided, beforeIndex: 1, afterIndex: 1 }],
    });
  });
});

describe("countEntries", () => {
  it("counts each kind once", () => {
    const a = user("a", 1);
    const b = user("b", 2);
    const { entries } = diffRequests(
      [a, b, user("c", 3)],
      [a, user("b, approved", 2), user("d", 4), user("e", 5)],
    );
    expect(countEntries(entries)).toEqual({ added: 2, removed: 1, changed: 1 });
    expect(countEntries([])).toEqual({ added: 0, removed: 0, changed: 0 });
  });
});
