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
  MAX_IMPORT_BYTES,
  parseSessionFile,
  readSessionFile,
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

describe("imports refuse what storage and display cannot hold", () => {
  /** A custom message whose details nest `levels` deep, built without recursion. */
  function deepMessage(levels: number): unknown {
    let details: unknown = "leaf";
    for (let level = 0; level < levels; level++) details = { next: details };
    return { ...createNotification("deep", "info", 1), details };
  }

  it("names the line of a message nested 10,000 levels deep, and keeps the others", () => {
    const lines = exportSession(session, "jsonl", 0).trim().split("\n");
    lines.splice(
      3,
      0,
      `{"type":"message","message":${JSON.stringify(createUserMessage("x", 1)).slice(0, -1)},"extra":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`,
    );
    const parsed = parseSessionFile(lines.join("\n"), "deep.jsonl");
    expect(parsed.messages).toEqual(messages);
    expect(parsed.problems).toEqual([
      {
        line: 4,
        message:
          "the message nests more than 200 levels deep; the playground accepts values up to 200 levels",
      },
    ]);
  });

  it("refuses deep details in a pi session's custom message, and in a JSON document's messages", () => {
    let details = "{}";
    for (let level = 0; level < 10_000; level++) details = `{"d":${details}}`;
    const piFile = [
      JSON.stringify({ type: "session", version: 3, id: "abc", timestamp: "2026-01-01T00:00:00.000Z" }),
      `{"type":"custom_message","customType":"x","content":"c","details":${details}}`,
      JSON.stringify({ type: "message", message: createUserMessage("kept", 1) }),
    ].join("\n");
    const parsed = parseSessionFile(piFile, "pi.jsonl");
    expect(parsed.problems.map((problem) => problem.line)).toEqual([2]);
    expect(parsed.messages).toEqual([createUserMessage("kept", 1)]);

    const json = `{"format":"pi-playground-session","version":1,"messages":[${JSON.stringify(createUserMessage("a", 1))},{"role":"user","content":"b","timestamp":2,"x":${details}}]}`;
    const document = parseSessionFile(json, "doc.json");
    expect(document.problems).toEqual([
      { line: 2, message: expect.stringMatching(/nests more than 200 levels/) },
    ]);
    expect(document.messages).toHaveLength(1);
  });

  it("accepts a message nested up to the limit", () => {
    const parsed = parseSessionFile(JSON.stringify([deepMessage(190)]), "ok.json");
    expect(parsed.problems).toEqual([]);
    expect(parsed.messages).toHaveLength(1);
  });

  it("refuses the whole file when its settings nest too deeply, naming where", () => {
    let queued = "{}";
    for (let level = 0; level < 10_000; level++) queued = `[${queued}]`;
    const header = `{"type":"session","format":"pi-playground-session","version":1,"title":"t","settings":{"nextTurn":${queued}}}`;
    const text = [header, JSON.stringify({ type: "message", message: createUserMessage("x", 1) })].join("\n");
    expect(() => parseSessionFile(text, "s.jsonl")).toThrow(
      "s.jsonl cannot be imported: the settings on line 1 nest more than 200 levels deep",
    );
  });

  it("refuses a file over the size limit before reading it", async () => {
    let read = false;
    const huge = {
      name: "huge.jsonl",
      size: MAX_IMPORT_BYTES + 1,
      text: async () => {
        read = true;
        return "";
      },
    };
    await expect(readSessionFile(huge)).rejects.toThrow(
      /huge\.jsonl is 64 MB; the playground imports session files up to 64 MB/,
    );
    expect(read).toBe(false);
  });
});
