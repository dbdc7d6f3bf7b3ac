/**
 * What an import found wrong with a file, each naming where: the line (or, in a JSON document, the place
 * in its lists) and the entry when it has an id. A problem means the file is damaged: the import goes
 * ahead only if the person confirms, and each message says what the import does about it.
 */
export interface ImportProblem {
  /** 1-based line of the file; in a JSON document, the position in its list (used for ordering). */
  line: number;
  /** The place in words when it is not a line ("entries[3]", "calls[2]"). */
  place?: string;
  /** The entry the problem is about, when it has an id. */
  entryId?: string;
  message: string;
}

const MAX_PROBLEMS_REPORTED = 20;

/** "line 3, entry 4f3a2b1c", "line 7", "entries[2]" */
export function placeOf(problem: Pick<ImportProblem, "line" | "place" | "entryId">): string {
  const where = problem.place ?? `line ${problem.line}`;
  return problem.entryId === undefined ? where : `${where}, entry ${problem.entryId}`;
}

/** "line 3: not valid JSON …; line 7, entry 1a2b3c4d: …" — the first problems, with a count of the rest. */
export function formatProblems(problems: readonly ImportProblem[]): string {
  const shown = problems
    .slice(0, MAX_PROBLEMS_REPORTED)
    .map((problem) => `${placeOf(problem)}: ${problem.message}`);
  const more = problems.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

/** "line 4", "lines 4 and 9", "lines 4, 9 and 12" */
export function linesList(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  return `lines ${lines.slice(0, -1).join(", ")} and ${lines.at(-1)}`;
}

export function byLine(a: ImportProblem, b: ImportProblem): number {
  return a.line - b.line;
}

/** Longest problem or note shown as it is; an id or label of a megabyte in one would freeze the page. */
export const MAX_REPORT_CHARS = 1_000;
/** Notes shown; a file of 50,000 roots has a note for each. */
export const MAX_NOTES_SHOWN = 20;

/** `text`, cut to `max` characters with a word of how much more there was. */
export function clipForDisplay(text: string, max = MAX_REPORT_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${(text.length - max).toLocaleString("en-US")} more characters)`;
}

/**
 * What an import reports, bounded for display: each problem and note cut to a readable length (the
 * file's ids and labels are in them), and the notes beyond the first few counted rather than listed.
 */
export function boundedReport<T extends { problems: ImportProblem[]; notes: string[] }>(report: T): T {
  const notes = report.notes.slice(0, MAX_NOTES_SHOWN).map((note) => clipForDisplay(note));
  const more = report.notes.length - notes.length;
  if (more > 0) notes.push(`and ${more.toLocaleString("en-US")} more notes of the same kinds`);
  return {
    ...report,
    problems: report.problems.map((problem) => ({
      ...problem,
      ...(problem.entryId !== undefined ? { entryId: clipForDisplay(problem.entryId, 100) } : {}),
      message: clipForDisplay(problem.message),
    })),
    notes,
  };
}
