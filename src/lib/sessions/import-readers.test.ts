import { describe, expect, it } from "vitest";
import { exportSession } from "./export-format.ts";
import { parseSessionFile } from "./import-file.ts";
import { formatProblems } from "./import-problems.ts";
import { snapshot } from "./session-file.test-support.ts";

describe("the playground's format read back", () => {
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
