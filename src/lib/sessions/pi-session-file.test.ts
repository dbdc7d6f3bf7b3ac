import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { piSession } from "../model-view/pi-sessions.test-support.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { formatProblems } from "./import-problems.ts";
import { parseSessionFile } from "./import-file.ts";
import { POSITION_CUSTOM_TYPE, readJsonLines, readPiSession, writePiSession } from "./pi-session-file.ts";

const at = "2026-01-01T00:00:00.000Z";
const header = { type: "session", version: 3, id: "s1", timestamp: at, cwd: "/repo" };
const userMessage = (text: string, timestamp = 1) => ({ role: "user", content: text, timestamp });
const message = (id: string, parentId: string | null, text = id) => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: userMessage(text),
});
const file = (...values: unknown[]) => values.map((value) => JSON.stringify(value)).join("\n");

describe("reading pi session files", () => {
  it("reads the header, the name pi gives the session, and the entries", () => {
    const read = readPiSession(
      readJsonLines(
        file(
          header,
          message("a", null),
          { type: "session_info", id: "n1", parentId: "a", timestamp: at, name: "First" },
          { type: "session_info", id: "n2", parentId: "n1", timestamp: at, name: "  Second \n" },
        ),
      ).values,
    );
    expect(read.header).toEqual(header);
    expect(read.name).toBe("Second");
    expect(read.leafId).toBe("n2");
    expect(read.problems).toEqual([]);
  });

  it("migrates version 1 and 2 files as pi's own migrations do", () => {
    const v1 = file(
      { type: "session", id: "old", timestamp: at, cwd: "/repo" },
      { type: "message", timestamp: at, message: userMessage("one") },
      {
        type: "message",
        timestamp: at,
        message: {
          role: "assistant",
          content: [{ type: "text", text: "two" }],
          api: "a",
          provider: "p",
          model: "m",
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "stop",
          timestamp: 2,
        },
      },
      { type: "message", timestamp: at, message: userMessage("three", 3) },
      { type: "compaction", timestamp: at, summary: "one, two", firstKeptEntryIndex: 3, tokensBefore: 10 },
      {
        type: "message",
        timestamp: at,
        message: {
          role: "hookMessage",
          customType: "hook",
          content: "from a hook",
          display: true,
          timestamp: 4,
        },
      },
    );
    const parsed = parseSessionFile(v1, "old.jsonl");
    expect(parsed.problems).toEqual([]);
    expect(parsed.notes[0]).toMatch(/^a version-1 pi session file: migrated as pi migrates it/);
    expect(parsed.piHeader?.version).toBe(3);

    // pi's migration of the same file: the same entries but for the ids each run makes up.
    const reference = piSession.parseSessionEntries(v1);
    piSession.migrateSessionEntries(reference);
    const [piHeader, ...piEntries] = reference as Record<string, unknown>[];
    expect(piHeader).toMatchObject({ version: 3 });
    const ours = parsed.entries.map(entryForFile);
    const position = (entries: Record<string, unknown>[]) => {
      const index = new Map(entries.map((entry, at) => [entry.id, at]));
      return entries.map((entry) => ({
        ...entry,
        id: index.get(entry.id),
        parentId: entry.parentId === null ? null : index.get(entry.parentId),
        ...("firstKeptEntryId" in entry ? { firstKeptEntryId: index.get(entry.firstKeptEntryId) } : {}),
      }));
    };
    expect(position(ours)).toEqual(position(piEntries));
    expect(ours[4]).toMatchObject({ type: "message", message: { role: "custom" } });
    // And the context pi builds from its migration is the one the playground projects from its own.
    expect(projectSession(pathTo(parsed.entries, parsed.leafId)).context).toEqual(
      piSession.buildSessionContext(piEntries).messages,
    );

    const v2 = file({ ...header, version: 2 }, message("a", null), {
      ...message("b", "a"),
      message: { role: "hookMessage", customType: "x", content: "c", display: false, timestamp: 2 },
    });
    const migrated = parseSessionFile(v2, "v2.jsonl");
    const piV2 = piSession.parseSessionEntries(v2);
    piSession.migrateSessionEntries(piV2);
    expect(migrated.entries.map(entryForFile)).toEqual(piV2.slice(1));
    expect(migrated.notes).toEqual([
      "a version-2 pi session file: migrated as pi migrates it (hookMessage roles renamed custom)",
    ]);
  });

  it("reads a newer version as version 3, and says so", () => {
    const parsed = parseSessionFile(file({ ...header, version: 4 }, message("a", null)), "new.jsonl");
    expect(parsed.problems).toEqual([]);
    expect(parsed.notes).toEqual([
      "written by a newer pi (session version 4); read as version 3, with entries of types this version does not know kept as they are",
    ]);
    expect(parsed.piHeader?.version).toBe(4);
  });

  it("names a missing header, a header without id, and a second header; the entries are kept", () => {
    const headless = parseSessionFile(file(message("a", null), message("b", "a")), "headless.jsonl");
    expect(formatProblems(headless.problems)).toBe(
      'line 1: the file does not start with a session header ({"type":"session",…}), which pi needs to open it; the import gives the session a new one',
    );
    expect(headless.entries).toHaveLength(2);
    expect(headless.piHeader).toMatchObject({ type: "session", version: 3, cwd: "" });

    const noId = parseSessionFile(file({ ...header, id: undefined }, message("a", null)), "no-id.jsonl");
    expect(formatProblems(noId.problems)).toBe(
      "line 1: the session header has no id, which pi needs to open the file; the import gives the session a new header",
    );

    const twice = parseSessionFile(
      file(header, message("a", null), { ...header, id: "s2" }, message("b", "a")),
      "two.jsonl",
    );
    expect(formatProblems(twice.problems)).toBe(
      "line 3: a second session header (session s2); ignored, as pi ignores it",
    );
    expect(twice.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
    expect(twice.piHeader).toEqual(header);
  });

  it("names malformed lines, skipped as pi skips them", () => {
    const parsed = parseSessionFile(
      [file(header, message("a", null)), "{oops", file(message("b", "a"))].join("\n"),
      "m.jsonl",
    );
    expect(parsed.problems).toEqual([
      { line: 3, message: expect.stringMatching(/^not valid JSON \(.+\); skipped$/) },
    ]);
    expect(parsed.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
  });
});

describe("writing pi session files", () => {
  const entries = [message("a", null), message("b", "a"), message("c", "a")] as unknown as SessionEntry[];
  const base = {
    sessionId: "playground-1",
    createdAt: Date.parse(at),
    entries,
    title: "t",
    titleIsCustom: false,
  };

  it("gives a session born here a header pi accepts, and writes every entry", () => {
    const { text, notes } = writePiSession({ ...base, leafId: "c" });
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines[0]).toEqual({ type: "session", version: 3, id: "playground-1", timestamp: at, cwd: "" });
    expect(lines.slice(1)).toEqual(entries);
    expect(notes).toEqual([]);
  });

  it("keeps every line in its place and hangs a position entry from a leaf that is not the last", () => {
    const { text } = writePiSession({ ...base, leafId: "b" }, Date.parse(at));
    const written = piSession.parseSessionEntries(text).slice(1);
    expect(written.slice(0, -1)).toEqual(entries);
    expect(written.at(-1)).toEqual({
      type: "custom",
      customType: POSITION_CUSTOM_TYPE,
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      parentId: "b",
      timestamp: at,
    });
    // At the file's last entry already: nothing is added.
    expect(piSession.parseSessionEntries(writePiSession({ ...base, leafId: "c" }).text).slice(1)).toEqual(
      entries,
    );
  });

  it("the leaf moved onto a label or a name: pi resolves labels and the name from the file as before", () => {
    // A label and a name set twice: pi keeps the later of each, by the order of lines.
    const values = [
      message("a", null),
      { type: "label", id: "l1", parentId: "a", timestamp: at, targetId: "a", label: "first" },
      { type: "session_info", id: "n1", parentId: "l1", timestamp: at, name: "First name" },
      message("b", "n1"),
      { type: "label", id: "l2", parentId: "b", timestamp: at, targetId: "a", label: "second" },
      { type: "session_info", id: "n2", parentId: "l2", timestamp: at, name: "Second name" },
    ];
    const dir = mkdtempSync(join(tmpdir(), "pi-playground-leaf-"));
    for (const leafId of ["l1", "n1"]) {
      const path = join(dir, `${leafId}.jsonl`);
      const { text } = writePiSession({
        ...base,
        entries: values as unknown as SessionEntry[],
        leafId,
        title: "Second name",
        titleIsCustom: true,
      });
      writeFileSync(path, text);
      const pi = piSession.SessionManager.open(path);
      expect(pi.getLabel("a")).toBe("second");
      expect(pi.getSessionName()).toBe("Second name");
      expect(
        pi
          .getBranch()
          .map((entry) => entry.id)
          .slice(0, -1),
      ).toEqual(leafId === "l1" ? ["a", "l1"] : ["a", "l1", "n1"]);
    }
  });

  it("says what a file cannot hold: a position before the first entry", () => {
    expect(writePiSession({ ...base, leafId: null }).notes).toEqual([
      "pi opens a file at its last entry; this session's position, before its first entry, is not something pi's files can hold",
    ]);
  });

  it("writes a renamed session's name as pi's rename does, once", () => {
    const renamed = writePiSession(
      { ...base, leafId: "c", title: "My\nname ", titleIsCustom: true },
      Date.parse(at),
    );
    const written = piSession.parseSessionEntries(renamed.text);
    expect(written.at(-1)).toEqual({
      type: "session_info",
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      parentId: "c",
      timestamp: at,
      name: "My name",
    });
    const named = [...entries, written.at(-1)] as SessionEntry[];
    const again = writePiSession({
      ...base,
      entries: named,
      leafId: named.at(-1)?.id ?? null,
      title: "My name",
      titleIsCustom: true,
    });
    expect(piSession.parseSessionEntries(again.text)).toHaveLength(named.length + 1);
  });
});
