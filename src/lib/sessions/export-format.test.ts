import { describe, expect, it } from "vitest";
import {
  createApprovalRequest,
  createBashExecution,
  createNotification,
  createUserMessage,
} from "../messages/factories.ts";
import { chainEntries, messageOf, type SessionEntry } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import type { NewCall } from "../storage/records.ts";
import { zeroUsage } from "../../shared/usage.ts";
import {
  exportFileName,
  exportSession,
  formatProblems,
  ImportError,
  MAX_IMPORT_BYTES,
  parseSessionFile,
  readSessionFile,
  type SessionSnapshot,
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

/** A tree: the facts above as one branch, a second branch from the user message, an unknown entry. */
function tree(): SessionEntry[] {
  const main = chainEntries(messages, null);
  const [, hello] = main;
  if (!hello) throw new Error("no entries");
  const side = chainEntries([createUserMessage("another way", 6)], hello.id, (id) =>
    main.some((entry) => entry.id === id),
  );
  const later: SessionEntry = {
    type: "unknown",
    id: "later001",
    parentId: side[0]?.id ?? null,
    timestamp: "2026-01-01T00:00:00.000Z",
    original: {
      type: "checkpoint",
      id: "later001",
      parentId: side[0]?.id ?? null,
      timestamp: "2026-01-01T00:00:00.000Z",
      files: [],
    },
  };
  return [...main, ...side, later];
}

const call: NewCall = {
  summary: {
    id: "call-1",
    startedAt: 10,
    provider: "mirror",
    modelId: "mirror",
    api: "mirror",
    options: { reasoning: "high" },
    messageCount: 2,
    leafId: null,
    outcome: { stopReason: "stop", usage: zeroUsage() },
    timing: { durationMs: 12 },
    capture: { messages: "all", payload: "none" },
  },
  body: {
    messages: { kept: "all", value: [{ role: "user", content: "hello", timestamp: 1 }], bytes: 50 },
    sources: ["x"],
    payload: { kept: "none", bytes: 0, reason: "the proxy did not report it" },
  },
};

function snapshot(overrides: Partial<SessionSnapshot> = {}): SessionSnapshot {
  const entries = tree();
  return {
    id: "session-1",
    title: "My session",
    titleIsCustom: true,
    createdAt: 0,
    settings,
    entries,
    // The tip of the first branch: not the last entry.
    leafId: entries[messages.length - 1]?.id ?? null,
    calls: [call],
    ...overrides,
  };
}

describe("the playground's format", () => {
  it.each(["jsonl", "json"] as const)(
    "round-trips through %s: every entry of the tree, the leaf, settings, title and recorded calls",
    (kind) => {
      const session = snapshot();
      const parsed = parseSessionFile(exportSession(session, kind, 0).text, `x.${kind}`);
      expect(parsed.problems).toEqual([]);
      expect(parsed.source).toBe(kind);
      expect(parsed.entries).toEqual(session.entries);
      expect(parsed.leafId).toBe(session.leafId);
      expect(parsed.settings).toEqual(settings);
      expect(parsed.title).toBe("My session");
      expect(parsed.titleIsCustom).toBe(true);
      expect(parsed.calls).toEqual([call]);
      expect(parsed.addSystemFact).toBe(false);
      expect(parsed.notes).toEqual([
        'kept, not understood: 1 entry of type "checkpoint" (' +
          (kind === "jsonl" ? "line 8" : "entries[6]") +
          ": entry later001); the model does not read it, and an export writes it back as it was",
      ]);
    },
  );

  it("writes JSONL as a header line, one line per entry as pi writes it, and one per call", () => {
    const session = snapshot();
    const lines = exportSession(session, "jsonl", 0)
      .text.trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      type: "session",
      format: "pi-playground-session",
      version: 2,
      leafId: session.leafId,
    });
    expect(lines.slice(1, -1)).toEqual(session.entries.map(entryForFile));
    expect(lines.at(-1)).toEqual({ type: "playground-call", ...call });
  });

  it("keeps the header of a session imported from pi, for its export back to pi", () => {
    const piHeader = { type: "session" as const, version: 3, id: "pi-1", timestamp: "t", cwd: "/repo" };
    const parsed = parseSessionFile(exportSession(snapshot({ piHeader }), "jsonl", 0).text, "x.jsonl");
    expect(parsed.piHeader).toEqual(piHeader);
  });

  it("names every broken line, and keeps the rest for an import the person confirms", () => {
    const session = snapshot();
    const lines = exportSession(session, "jsonl", 0).text.trim().split("\n");
    lines.splice(2, 0, "{this is not json");
    lines.push(JSON.stringify({ type: "playground-call", summary: { id: 3 }, body: {} }));
    const parsed = parseSessionFile(lines.join("\n"), "broken.jsonl");
    expect(parsed.entries).toEqual(session.entries);
    expect(parsed.problems.map((problem) => problem.line)).toEqual([3, 11]);
    expect(formatProblems(parsed.problems)).toMatch(
      /^line 3: not valid JSON \(.*\); skipped; line 11: a recorded call that cannot be read \(the call record lacks its model, outcome or timing; the call body is damaged\); skipped$/,
    );
  });

  it("says where the session continues when its position is not among the entries", () => {
    const parsed = parseSessionFile(exportSession(snapshot({ leafId: "gone" }), "jsonl", 0).text, "x.jsonl");
    expect(formatProblems(parsed.problems)).toBe(
      "line 1: the session's position, entry gone, is not among the entries imported; the session continues from the last one, later001",
    );
    expect(parsed.leafId).toBe("later001");
  });
});

describe("the export for pi", () => {
  it("says what pi's file and pi's conversion do not keep of this session", () => {
    const notes = exportSession(
      snapshot({
        settings: {
          ...settings,
          context: {
            applyCompaction: false,
            policies: { ...settings.context.policies, notification: "userText" },
          },
        },
      }),
      "pi",
    ).notes;
    expect(notes).toEqual([
      "pi's convertToLlm drops notification messages, which this session sends the model as user text: in pi the model reads none of them",
      "pi always applies compaction, which this session shows the model without",
      "the 1 recorded model call stays here: pi's files have no place for them (an export as JSONL keeps them)",
    ]);
    expect(exportSession(snapshot({ settings: defaultSettings(), calls: [] }), "pi").notes).toEqual([]);
  });
});

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

  it("refuses files that are empty, foreign, from a newer version, or without anything importable", () => {
    expect(() => parseSessionFile("", "e.jsonl")).toThrow(ImportError);
    expect(() =>
      parseSessionFile(JSON.stringify({ format: "something-else", messages: [] }), "f.json"),
    ).toThrow(/not a playground session/);
    expect(() =>
      parseSessionFile(
        JSON.stringify({ format: "pi-playground-session", version: 9, entries: [] }),
        "n.json",
      ),
    ).toThrow(/newer version of the playground \(format version 9\); this one reads up to 2/);
    expect(() => parseSessionFile("garbage\nmore garbage", "g.jsonl")).toThrow(
      /no importable message.*line 1: not valid JSON/,
    );
    expect(() =>
      parseSessionFile(
        [
          JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "" }),
          JSON.stringify({ type: "message", parentId: null }),
        ].join("\n"),
        "pi.jsonl",
      ),
    ).toThrow("pi.jsonl has no importable entry. line 2: the message entry has no id");
  });

  it("names export files after the session", () => {
    const when = Date.UTC(2026, 10, 30, 8, 5);
    expect(exportFileName("Fix the tests!", "jsonl", when)).toBe("fix-the-tests-2026-11-30-08-05.jsonl");
    expect(exportFileName("Fix the tests!", "pi", when)).toBe("fix-the-tests-2026-11-30-08-05.pi.jsonl");
    expect(
      parseSessionFile(exportSession(snapshot({ titleIsCustom: false }), "pi").text, "x-1.pi.jsonl").title,
    ).toBe("Imported: x-1");
  });
});

describe("imports refuse what storage and display cannot hold", () => {
  it("names the line and entry of an entry nested 10,000 levels deep, and keeps the others", () => {
    const session = snapshot();
    const lines = exportSession(session, "jsonl", 0).text.trim().split("\n");
    lines.splice(
      3,
      0,
      `{"type":"custom","id":"deep0001","parentId":null,"timestamp":"t","customType":"x","data":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
    );
    const parsed = parseSessionFile(lines.join("\n"), "deep.jsonl");
    expect(parsed.entries).toEqual(session.entries);
    expect(parsed.problems).toEqual([
      {
        line: 4,
        entryId: "deep0001",
        message:
          "the entry nests more than 200 levels deep; the playground accepts values up to 200 levels; skipped",
      },
    ]);
  });

  it("refuses the whole file when its settings nest too deeply, naming where", () => {
    let queued = "{}";
    for (let level = 0; level < 10_000; level++) queued = `[${queued}]`;
    const header = `{"type":"session","format":"pi-playground-session","version":2,"title":"t","settings":{"nextTurn":${queued}}}`;
    expect(() => parseSessionFile(header, "s.jsonl")).toThrow(
      "s.jsonl cannot be imported: the settings on line 1 nest more than 200 levels deep",
    );
  });

  const piFile = [
    { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/repo" },
    { type: "message", id: "a", parentId: null, timestamp: "t", message: createUserMessage("a", 1) },
    { type: "message", id: "b", parentId: "a", timestamp: "t", message: createUserMessage("b", 2) },
    { type: "message", id: "c", parentId: "b", timestamp: "t", message: createUserMessage("c", 3) },
  ]
    .map((line) => JSON.stringify(line))
    .join("\n");

  it("of a JSONL file over the size limit, offers the lines within it, saying where it stops", async () => {
    let readWhole = false;
    const cut = piFile.lastIndexOf('"c"'); // in the middle of the last line
    const huge = {
      name: "huge.jsonl",
      size: MAX_IMPORT_BYTES + 1_000,
      text: async () => {
        readWhole = true;
        return "";
      },
      slice: (start?: number, end?: number) => {
        expect([start, end]).toEqual([0, MAX_IMPORT_BYTES]);
        return new Blob([piFile.slice(0, cut)]);
      },
    };
    const parsed = await readSessionFile(huge);
    expect(readWhole).toBe(false);
    expect(parsed.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(formatProblems(parsed.problems)).toBe(
      "line 4: huge.jsonl is 64 MB; the playground imports session files up to 64 MB: it is read up to line 3 (the last entry read is b), and the lines after it are not imported",
    );
  });

  it("refuses a JSON document over the size limit before reading it whole", async () => {
    const huge = {
      name: "huge.json",
      size: MAX_IMPORT_BYTES + 1,
      text: async () => "",
      slice: () => new Blob(['{\n  "format": "pi-playground-session",\n']),
    };
    await expect(readSessionFile(huge)).rejects.toThrow(
      /^huge\.json is 64 MB; the playground imports session files up to 64 MB\.$/,
    );
  });
});
