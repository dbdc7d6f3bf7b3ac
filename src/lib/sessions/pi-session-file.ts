import { newEntryId, type SessionEntry } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { isObject } from "../../shared/is-object.ts";
import type { ImportProblem } from "./import-problems.ts";
import { readSessionTree, type RawEntry, type TreeRead } from "./session-tree-read.ts";

/**
 * pi coding agent's session files (`SessionManager` in pi 1.6): JSONL, a header line
 * `{type: "session", version, id, timestamp, cwd, parentSession?}`, then one entry per line, each naming its
 * parent. pi keeps no leaf in the file: a file opens at its last entry. Versions 1 (no ids: a flat list) and
 * 2 (`hookMessage` roles) are migrated exactly as pi migrates them when it opens them; a newer version is
 * read as version 3, its unknown entry types kept as they are.
 */
export const PI_SESSION_VERSION = 3;

/** A header as pi writes it; other fields a file carries are kept and written back. */
export interface PiSessionHeader extends Record<string, unknown> {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

export function isPiHeader(value: unknown): value is PiSessionHeader {
  return isObject(value) && value.type === "session" && typeof value.id === "string" && value.id !== "";
}

/**
 * A file's lines parsed, each with its number; lines that are not JSON are problems (pi skips them).
 * `onProgress` hears how many characters are parsed, every few thousand lines.
 */
export function readJsonLines(
  text: string,
  onProgress?: (done: number) => void,
): { values: RawEntry[]; problems: ImportProblem[] } {
  const values: RawEntry[] = [];
  const problems: ImportProblem[] = [];
  let start = 0;
  for (let index = 0; start <= text.length; index++) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(start, end);
    start = end + 1;
    if (onProgress && index % 2_000 === 1_999) onProgress(Math.min(start, text.length));
    if (raw.trim() === "") continue;
    try {
      values.push({ line: index + 1, value: JSON.parse(raw) as unknown });
    } catch (error) {
      problems.push({ line: index + 1, message: `not valid JSON (${(error as Error).message}); skipped` });
    }
  }
  return { values, problems };
}

export interface PiSessionRead extends TreeRead {
  header: PiSessionHeader;
  /** The header is the file's own (pi opens such a file even when none of its entries can be read). */
  headerRead: boolean;
  /** The session's name, as pi's `getSessionName` reads it: the last `session_info` in the file. */
  name: string | undefined;
}

/**
 * Read a pi session file's parsed lines. The first value must be the header (pi refuses a file without
 * one); other headers are ignored, as pi ignores them.
 */
export function readPiSession(values: readonly RawEntry[], now = Date.now()): PiSessionRead {
  const problems: ImportProblem[] = [];
  const notes: string[] = [];
  const first = values[0];
  let header: PiSessionHeader | undefined;
  if (first && isObject(first.value) && first.value.type === "session") {
    if (isPiHeader(first.value)) header = { ...first.value };
    else
      problems.push({
        line: first.line,
        message:
          "the session header has no id, which pi needs to open the file; the import gives the session a new header",
      });
  } else {
    problems.push({
      line: first?.line ?? 1,
      message:
        'the file does not start with a session header ({"type":"session",…}), which pi needs to open it; the import gives the session a new one',
    });
  }
  const entries: RawEntry[] = [];
  values.forEach((raw, index) => {
    if (!isObject(raw.value) || raw.value.type !== "session") {
      entries.push(raw);
      return;
    }
    if (index === 0) return;
    const id = typeof raw.value.id === "string" ? ` (session ${raw.value.id})` : "";
    problems.push({ line: raw.line, message: `a second session header${id}; ignored, as pi ignores it` });
  });

  const version = header
    ? typeof header.version === "number"
      ? header.version
      : 1
    : entries.some((raw) => isObject(raw.value) && typeof raw.value.id === "string")
      ? PI_SESSION_VERSION
      : 1;
  if (version < PI_SESSION_VERSION) {
    migrate(
      values.map((raw) => raw.value),
      version,
    );
    notes.push(
      version < 2
        ? `a version-${version} pi session file: migrated as pi migrates it (each entry given an id and the one before it as parent, compactions pointed at their first kept entry, hookMessage roles renamed custom)`
        : `a version-2 pi session file: migrated as pi migrates it (hookMessage roles renamed custom)`,
    );
    if (header) header.version = PI_SESSION_VERSION;
  } else if (version > PI_SESSION_VERSION) {
    notes.push(
      `written by a newer pi (session version ${version}); read as version ${PI_SESSION_VERSION}, with entries of types this version does not know kept as they are`,
    );
  }

  const tree = readSessionTree(entries);
  return {
    ...tree,
    header: header ?? newPiHeader(crypto.randomUUID(), now),
    headerRead: header !== undefined,
    problems: [...problems, ...tree.problems].sort((a, b) => a.line - b.line),
    notes: [...notes, ...tree.notes],
    name: piSessionName(tree.entries),
  };
}

/**
 * pi's migrations (v1 → v2: ids and parents in file order, `firstKeptEntryIndex` → `firstKeptEntryId`;
 * v2 → v3: the `hookMessage` role becomes `custom`), over the file's parsed values in place. Indices are
 * positions among the parsed values, header included, as in pi.
 */
function migrate(values: unknown[], version: number): void {
  if (version < 2) {
    const ids = new Set<string>();
    let previous: string | null = null;
    for (const value of values) {
      if (!isObject(value)) continue;
      if (value.type === "session") continue;
      const id = newEntryId((candidate) => ids.has(candidate));
      ids.add(id);
      value.id = id;
      value.parentId = previous;
      previous = id;
      if (value.type === "compaction" && typeof value.firstKeptEntryIndex === "number") {
        const target = values[value.firstKeptEntryIndex];
        if (isObject(target) && target.type !== "session") value.firstKeptEntryId = target.id;
        delete value.firstKeptEntryIndex;
      }
    }
  }
  for (const value of values) {
    if (isObject(value) && value.type === "message" && isObject(value.message)) {
      if (value.message.role === "hookMessage") value.message.role = "custom";
    }
  }
}

export function newPiHeader(id: string, createdAt: number): PiSessionHeader {
  return {
    type: "session",
    version: PI_SESSION_VERSION,
    id,
    timestamp: new Date(createdAt).toISOString(),
    // pi resolves an empty cwd to the directory it is started in: the session continues wherever it is opened.
    cwd: "",
  };
}

/** pi's session name: the last `session_info` entry's name, trimmed; an empty name clears it. */
export function piSessionName(entries: readonly SessionEntry[]): string | undefined {
  const info = entries.findLast((entry) => entry.type === "session_info");
  return info?.type === "session_info" ? info.name?.trim() || undefined : undefined;
}

/** As pi's `appendSessionInfo` cleans a name. */
function cleanName(name: string): string {
  return name.replace(/[\r\n]+/g, " ").trim();
}

export interface PiExportInput {
  /** The header the session was imported with; a new one (from `sessionId`, `createdAt`) otherwise. */
  header?: PiSessionHeader | undefined;
  sessionId: string;
  createdAt: number;
  /** Every entry, in order of creation. */
  entries: readonly SessionEntry[];
  leafId: string | null;
  title: string;
  /** A title someone chose: written as the session's name when the entries do not already say it. */
  titleIsCustom: boolean;
}

/**
 * The `customType` of the entry an export adds where the session's position is not the file's last entry.
 * A `custom` entry is pi's place for an application's own state: never part of the model's context, hidden
 * in pi's tree, resolved by nothing.
 */
export const POSITION_CUSTOM_TYPE = "pi-playground.position";

/**
 * Write a session as pi writes its files: the header, then every entry in order (an unknown one exactly as
 * it was read), so pi coding agent opens it and continues it. pi continues a file from its last entry;
 * where the session's position is elsewhere, an entry hangs from it instead of moving it, since pi reads
 * labels, the session's name and its session list from the order of lines: a renamed session's
 * `session_info` (as pi's own rename appends one), or else a `custom` entry that changes nothing pi reads.
 */
export function writePiSession(input: PiExportInput, now = Date.now()): { text: string; notes: string[] } {
  const notes: string[] = [];
  const header = input.header ?? newPiHeader(input.sessionId, input.createdAt);
  const entries = [...input.entries];
  const leafId = input.leafId;
  if (leafId === null && entries.length > 0)
    notes.push(
      "pi opens a file at its last entry; this session's position, before its first entry, is not something pi's files can hold",
    );
  const taken = new Set(entries.map((entry) => entry.id));
  const base = () => ({
    id: newEntryId((id) => taken.has(id)),
    parentId: leafId,
    timestamp: new Date(now).toISOString(),
  });
  const name = cleanName(input.title);
  if (input.titleIsCustom && name !== "" && piSessionName(entries) !== name)
    entries.push({ type: "session_info", ...base(), name });
  else if (leafId !== null && entries.at(-1)?.id !== leafId && entries.some((entry) => entry.id === leafId))
    entries.push({ type: "custom", customType: POSITION_CUSTOM_TYPE, ...base() });
  const lines = [header, ...entries.map(entryForFile)].map((value) => JSON.stringify(value));
  return { text: `${lines.join("\n")}\n`, notes };
}
