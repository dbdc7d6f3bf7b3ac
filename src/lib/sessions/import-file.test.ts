import { describe, expect, it } from "vitest";
import { createUserMessage } from "../messages/factories.ts";
import { exportSession } from "./export-format.ts";
import { MAX_IMPORT_BYTES, parseSessionFile, readSessionFile } from "./import-file.ts";
import { formatProblems } from "./import-problems.ts";
import { ImportError } from "./parsed-import.ts";
import { snapshot } from "./session-file.test-support.ts";

describe("files the playground cannot read", () => {
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
        [JSON.stringify({ type: "", id: "a", parentId: null }), JSON.stringify({ id: "b" })].join("\n"),
        "pi.jsonl",
      ),
    ).toThrow("pi.jsonl has no importable entry. line 1: the file does not start with a session header");
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

describe("Large imports freeze the tab: what an import reports stays short enough to show", () => {
  const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };
  const entry = (id: string, parentId: string | null, text = "hi") => ({
    type: "message",
    id,
    parentId,
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { role: "user", content: text, timestamp: 1 },
  });
  const file = (...values: unknown[]) =>
    new File([[header, ...values].map((value) => JSON.stringify(value)).join("\n")], "f.jsonl");

  it("names the first of 50,000 roots and counts the rest, instead of a note for each", async () => {
    const roots = Array.from({ length: 50_000 }, (_, index) => entry(`r${index}`, null));
    const parsed = await readSessionFile(file(...roots));
    expect(parsed.entries).toHaveLength(50_000);
    expect(parsed.notes.length).toBeLessThanOrEqual(21);
    expect(parsed.notes.at(-1)).toBe("and 49,979 more notes of the same kinds");
    expect(parsed.notes.join("; ").length).toBeLessThan(25_000);
  });

  it("cuts an id of 1 MB in the problems that name it, and keeps the id itself whole", async () => {
    const hugeId = `id-${"z".repeat(1024 * 1024)}`;
    const parsed = await readSessionFile(file(entry(hugeId, null, "first"), entry(hugeId, null, "again")));
    expect(parsed.entries.map((read) => read.id)).toEqual([hugeId]);
    expect(parsed.problems).toHaveLength(1);
    const [problem] = parsed.problems;
    expect(problem?.entryId?.length).toBeLessThan(200);
    expect(problem?.entryId).toMatch(/^id-z+… \(1,048,479 more characters\)$/);
    expect(problem?.message.length).toBeLessThan(1_100);
  });
});
