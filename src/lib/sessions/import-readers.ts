import { defaultSettings } from "../agent/session-settings.ts";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import { pathEnd } from "../model-view/session-projection.ts";
import { nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { readCallBody, readCallRecord, SCHEMA_VERSION, type NewCall } from "../storage/records.ts";
import { isObject } from "../../shared/is-object.ts";
import { newCallOf } from "./export-format.ts";
import { byLine, type ImportProblem } from "./import-problems.ts";
import { noEntries, titleFrom, type ImportAbout, type ParsedImport, type PathEnd } from "./parsed-import.ts";
import { isPiHeader, readPiSession } from "./pi-session-file.ts";
import { readSessionTree, type RawEntry } from "./session-tree-read.ts";

/**
 * Readers of the session files that hold a tree: the playground's own format from version 2 on, and pi
 * coding agent's session file. Which one a file is, import-file.ts decides.
 */

/** The playground's own format from version 2 on: the tree, its leaf, and the recorded calls. */
export function parsePlaygroundTree(
  header: Record<string, unknown>,
  /** Where the header's `leafId` is: its line, or the field of a JSON document. */
  leafPlace: Pick<ImportProblem, "line" | "place">,
  entryRaws: RawEntry[],
  callRaws: RawEntry[],
  jsonProblems: ImportProblem[],
  about: ImportAbout,
  fileName: string,
): ParsedImport {
  const read = readSessionTree(entryRaws, { leafIsLast: false });
  const calls = readCalls(callRaws);
  const problems = [...jsonProblems, ...read.problems, ...calls.problems];
  noEntries(read.entries.length, problems, fileName);
  let leafId = read.leafId;
  const wanted = header.leafId;
  if (wanted === null) leafId = null;
  else if (typeof wanted === "string" && read.entries.some((entry) => entry.id === wanted)) leafId = wanted;
  else if (typeof wanted === "string")
    problems.push({
      ...leafPlace,
      message: `the session's position, entry ${wanted}, is not among the entries imported; the session continues from the last one${leafId ? `, ${leafId}` : ""}`,
    });
  return {
    ...about,
    entries: read.entries,
    leafId,
    ...(isPiHeader(header.piHeader) ? { piHeader: header.piHeader } : {}),
    calls: calls.calls,
    problems: problems.sort(byLine),
    notes: read.notes,
    addSystemFact: false,
  };
}

/** A pi coding agent session file: the tree, its header, its name; settings come from its path later. */
export function parsePiSession(
  values: RawEntry[],
  jsonProblems: ImportProblem[],
  fileName: string,
): ParsedImport {
  const read = readPiSession(values);
  const problems = [...jsonProblems, ...read.problems].sort(byLine);
  // A session header with nothing readable after it is an empty session to pi, and so it is here.
  if (!read.headerRead) noEntries(read.entries.length, problems, fileName);
  return {
    source: "pi-session",
    title: read.name ?? titleFrom(fileName),
    titleIsCustom: read.name !== undefined,
    settings: defaultSettings(),
    entries: read.entries,
    leafId: read.leafId,
    piHeader: read.header,
    calls: [],
    problems,
    notes: read.notes,
    addSystemFact: false,
    pathEnd: pathEndOf(read.entries, read.leafId),
  };
}

/** The model and thinking level the path to `leafId` ends with, as pi reads them. */
export function pathEndOf(entries: readonly SessionEntry[], leafId: string | null): PathEnd {
  return pathEnd(pathTo(entries, leafId));
}

/** Recorded calls: a damaged one is named and skipped (calls are diagnostics, never repaired). */
function readCalls(raws: readonly RawEntry[]): { calls: NewCall[]; problems: ImportProblem[] } {
  const calls: NewCall[] = [];
  const problems: ImportProblem[] = [];
  for (const raw of raws) {
    const report = (message: string) =>
      problems.push({ line: raw.line, ...(raw.place ? { place: raw.place } : {}), message });
    const value = raw.value;
    if (!isObject(value) || !isObject(value.summary) || !isObject(value.body)) {
      report("a recorded call without its summary and body; skipped");
      continue;
    }
    if (nestsDeeperThan(value)) {
      report(`the recorded call nests ${tooDeepMessage()}; skipped`);
      continue;
    }
    const keys = { schema: SCHEMA_VERSION, sessionId: "", seq: 0 };
    const summary = readCallRecord({ ...value.summary, ...keys });
    const body = readCallBody({ ...value.body, ...keys });
    if (!summary.ok || !body.ok) {
      report(
        `a recorded call that cannot be read (${summary.ok ? "" : summary.reason}${!summary.ok && !body.ok ? "; " : ""}${body.ok ? "" : body.reason}); skipped`,
      );
      continue;
    }
    calls.push(newCallOf(summary.value, body.value));
  }
  return { calls, problems };
}
