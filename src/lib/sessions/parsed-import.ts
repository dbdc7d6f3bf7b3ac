import type { SessionEntry } from "../messages/entries.ts";
import { readSettings, type SessionSettings } from "../agent/session-settings.ts";
import type { NewCall } from "../storage/records.ts";
import { isObject } from "../../shared/is-object.ts";
import { formatProblems, type ImportProblem } from "./import-problems.ts";
import type { PiSessionHeader } from "./pi-session-file.ts";

/** What an import of a session file yields, whichever kind of file it was (see import-file.ts). */

export type ImportSource = "jsonl" | "json" | "json-v0" | "pi-session" | "lhar" | "raw-request";

export interface ParsedImport {
  /** What kind of file it was, for the confirmation text. */
  source: ImportSource;
  title: string;
  /** The title is the session's own name (not one made from the file name). */
  titleIsCustom: boolean;
  settings: SessionSettings;
  /** The whole tree, in file order. */
  entries: SessionEntry[];
  leafId: string | null;
  piHeader?: PiSessionHeader;
  calls: NewCall[];
  /** What is wrong with the file: the import goes ahead only if the person confirms. */
  problems: ImportProblem[];
  /** What the person should know though nothing is wrong: entries kept without being understood, a migration. */
  notes: string[];
  /** A flat file from before sessions were trees, without a system message: the playground's goes first. */
  addSystemFact: boolean;
  /**
   * A pi session file's model and thinking level at the end of the path to its leaf, as pi reads them: found
   * where the file is read (the import's worker), since projecting a path of 100,000 entries on the page
   * would be a long task of its own.
   */
  pathEnd?: PathEnd;
}

/** The model and thinking level a session's path ends with. */
export interface PathEnd {
  model: { provider: string; modelId: string } | null;
  thinkingLevel: string;
}

export class ImportError extends Error {}

/** What a file says of its session besides its entries, and which kind of file it was. */
export interface ImportAbout {
  title: string;
  titleIsCustom: boolean;
  settings: SessionSettings;
  source: ImportSource;
}

export function aboutFrom(
  header: Record<string, unknown>,
  fileName: string,
  source: ImportSource,
): ImportAbout {
  const titled = typeof header.title === "string" && header.title.trim() !== "";
  return {
    title: titled ? (header.title as string) : titleFrom(fileName),
    titleIsCustom: titled && header.titleIsCustom !== false,
    settings: readSettings(isObject(header.settings) ? header.settings : {}),
    source,
  };
}

/** A file none of whose entries could be read is refused, naming what is wrong with it. */
export function noEntries(count: number, problems: readonly ImportProblem[], fileName: string): void {
  if (count === 0 && problems.length > 0)
    throw new ImportError(`${fileName} has no importable entry. ${formatProblems(problems)}`);
}

/** The title of a session whose file gives none: the file's name without its extensions. */
export function titleFrom(fileName: string): string {
  return `Imported: ${fileName.replace(/(\.pi)?\.(jsonl?|txt)$/i, "").replace(/\.lhar$/i, "")}`;
}

/**
 * A flat file's entries with the playground's system message first: the roots hang under it. The page and
 * the import worker (which stores the entries it holds) both make the session's entries with this.
 */
export function withSystemEntry(entries: readonly SessionEntry[], system: SessionEntry): SessionEntry[] {
  return [
    system,
    ...entries.map((entry) => (entry.parentId === null ? { ...entry, parentId: system.id } : entry)),
  ];
}
