import { describe, expect, it } from "vitest";
import { messageOf } from "../messages/entries.ts";
import { parseSessionFile } from "./import-file.ts";
import { formatProblems } from "./import-problems.ts";
import { messages, settings } from "./session-file.test-support.ts";

describe("older files", () => {
  /** What the playground exported before sessions were trees: the path's facts, one per line. */
  const version1 = [
    JSON.stringify({ type: "session", format: "pi-playground-session", version: 1, title: "Old", settings }),
    ...messages.map((message) => JSON.stringify({ type: "message", message })),
  ].join("\n");

  it("reads version 1 (the facts of the path) as a chain", () => {
    const parsed = parseSessionFile(version1, "old.jsonl");
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries.map(messageOf)).toEqual(messages);
    expect(parsed.entries.map((entry) => entry.parentId)).toEqual([
      null,
      ...parsed.entries.slice(0, -1).map((entry) => entry.id),
    ]);
    expect(parsed.leafId).toBe(parsed.entries.at(-1)?.id);
    expect(parsed.settings).toEqual(settings);
    expect(parsed.addSystemFact).toBe(false);

    const document = parseSessionFile(
      JSON.stringify({ format: "pi-playground-session", version: 1, title: "Old", settings, messages }),
      "old.json",
    );
    expect(document.entries.map(messageOf)).toEqual(messages);
  });

  it("names broken lines of a version-1 file", () => {
    const lines = version1.split("\n");
    lines.splice(2, 0, "{this is not json");
    lines.splice(4, 0, JSON.stringify({ type: "message", message: { role: "wizard", timestamp: 1 } }));
    const parsed = parseSessionFile(lines.join("\n"), "broken.jsonl");
    expect(parsed.entries.map(messageOf)).toEqual(messages);
    expect(formatProblems(parsed.problems)).toMatch(
      /^line 3: not valid JSON \(.*\); skipped; line 5: Unknown role "wizard"/,
    );
  });

  it("reads the version-0 format, a bare array of messages, with the playground's system message first", () => {
    const parsed = parseSessionFile(JSON.stringify(messages.slice(1)), "old.json");
    expect(parsed.source).toBe("json-v0");
    expect(parsed.entries.map(messageOf)).toEqual(messages.slice(1));
    expect(parsed.addSystemFact).toBe(true);
    expect(parsed.title).toBe("Imported: old");
    expect(parsed.titleIsCustom).toBe(false);
  });
});
