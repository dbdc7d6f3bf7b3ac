import { describe, expect, it } from "vitest";
import { entryForFile } from "../messages/entry-validate.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import { exportFileName, exportSession } from "./export-format.ts";
import { parseSessionFile } from "./import-file.ts";
import { call, settings, snapshot } from "./session-file.test-support.ts";

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

describe("export file names", () => {
  it("names export files after the session", () => {
    const when = Date.UTC(2026, 10, 30, 8, 5);
    expect(exportFileName("Fix the tests!", "jsonl", when)).toBe("fix-the-tests-2026-11-30-08-05.jsonl");
    expect(exportFileName("Fix the tests!", "pi", when)).toBe("fix-the-tests-2026-11-30-08-05.pi.jsonl");
    expect(
      parseSessionFile(exportSession(snapshot({ titleIsCustom: false }), "pi").text, "x-1.pi.jsonl").title,
    ).toBe("Imported: x-1");
  });
});
