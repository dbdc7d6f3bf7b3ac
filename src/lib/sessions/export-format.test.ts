import { describe, expect, it } from "vitest";
import {
  createApprovalRequest,
  createBashExecution,
  createNotification,
  createUserMessage,
} from "../messages/factories.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import {
  exportFileName,
  exportSession,
  formatProblems,
  ImportError,
  parseSessionFile,
} from "./export-format.ts";

const settings = {
  ...defaultSettings(),
  thinkingLevel: "high" as const,
  context: { ...defaultSettings().context, applyCompaction: false },
};
const messages = [
  { role: "system" as const, content: "prompt", timestamp: 0 },
  createUserMessage("hello", 1),
  createNotification("n", "warning", 2),
  createBashExecution(
    { command: "ls", output: "a", exitCode: undefined, cancelled: false, truncated: false },
    3,
  ),
  { ...createApprovalRequest({ action: "Deploy" }, 4), status: "approved" as const, decidedAt: 5 },
];
const session = { title: "My session", settings, messages };

describe("export and import", () => {
  it.each(["jsonl", "json"] as const)(
    "round-trips a session through %s with identical facts and settings",
    (kind) => {
      const parsed = parseSessionFile(exportSession(session, kind, 0), `x.${kind}`);
      expect(parsed.messages).toEqual(messages);
      expect(parsed.settings).toEqual(settings);
      expect(parsed.title).toBe("My session");
      expect(parsed.problems).toEqual([]);
      expect(parsed.source).toBe(kind);
    },
  );

  it("writes JSONL as a header line and one line per message", () => {
    const lines = exportSession(session, "jsonl", 0).trim().split("\n");
    expect(lines).toHaveLength(messages.length + 1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      type: "session",
      format: "pi-playground-session",
      version: 1,
    });
    expect(JSON.parse(lines[2] ?? "")).toEqual({ type: "message", message: createUserMessage("hello", 1) });
  });

  it("names every broken line, and keeps the good ones for an import the person confirms", () => {
    const lines = exportSession(session, "jsonl", 0).trim().split("\n");
    lines.splice(2, 0, "{this is not json");
    lines.splice(4, 0, JSON.stringify({ type: "message", message: { role: "wizard", timestamp: 1 } }));
    const parsed = parseSessionFile(lines.join("\n"), "broken.jsonl");
    expect(parsed.messages).toEqual(messages);
    expect(parsed.problems.map((problem) => problem.line)).toEqual([3, 5]);
    expect(formatProblems(parsed.problems)).toMatch(
      /^line 3: not valid JSON \(.*\); line 5: Unknown role "wizard"/,
    );
  });

  it("reads the version-0 format: a bare array of messages", () => {
    const parsed = parseSessionFile(JSON.stringify(messages), "old.json");
    expect(parsed.source).toBe("json-v0");
    expect(parsed.messages).toEqual(messages);
    expect(parsed.title).toBe("Imported: old");
  });

  it("reads pi coding-agent session files, mapping compaction and branch entries to facts", () => {
    const piFile = [
      { type: "session", version: 3, id: "abc", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/repo" },
      {
        type: "message",
        id: "1",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: createUserMessage("hi", 1),
      },
      { type: "model_change", id: "2", provider: "anthropic", modelId: "x" },
      {
        type: "compaction",
        id: "3",
        summary: "we did things",
        firstKeptEntryId: "1",
        tokensBefore: 5000,
        timestamp: "2026-01-01T00:00:02.000Z",
      },
      {
        type: "branch_summary",
        id: "4",
        fromId: "9",
        summary: "tried Y",
        timestamp: "2026-01-01T00:00:03.000Z",
      },
    ]
      .map((entry) => JSON.stringify(entry))
      .join("\n");
    const parsed = parseSessionFile(piFile, "pi.jsonl");
    expect(parsed.source).toBe("pi-session");
    expect(parsed.messages.map((message) => message.role)).toEqual([
      "user",
      "compactionSummary",
      "branchSummary",
    ]);
    expect(parsed.messages[1]).toMatchObject({
      summary: "we did things",
      tokensBefore: 5000,
      timestamp: Date.parse("2026-01-01T00:00:02.000Z"),
    });
    expect(parsed.skippedEntries).toEqual({ model_change: 1 });
  });

  it("refuses files that are empty, foreign, from a newer version, or without any valid message", () => {
    expect(() => parseSessionFile("", "e.jsonl")).toThrow(ImportError);
    expect(() =>
      parseSessionFile(JSON.stringify({ format: "something-else", messages: [] }), "f.json"),
    ).toThrow(/not a playground session/);
    expect(() =>
      parseSessionFile(
        JSON.stringify({ format: "pi-playground-session", version: 9, messages: [] }),
        "n.json",
      ),
    ).toThrow(/newer version/);
    expect(() => parseSessionFile("garbage\nmore garbage", "g.jsonl")).toThrow(
      /no importable message.*line 1: not valid JSON/,
    );
  });

  it("names export files after the session", () => {
    expect(exportFileName("Fix the tests!", "jsonl", Date.UTC(2026, 10, 30, 8, 5))).toBe(
      "fix-the-tests-2026-11-30-08-05.jsonl",
    );
  });
});
