import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { MAX_NESTING_DEPTH, nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { describeErrors, validateMessage } from "../messages/validate.ts";
import { defaultSettings, readSettings, type SessionSettings } from "../agent/session-settings.ts";
import {
  readCallBody,
  readCallRecord,
  SCHEMA_VERSION,
  type CallBodyRecord,
  type CallRecord,
  type NewCall,
} from "../storage/records.ts";
import { POLICY_ROLES } from "../messages/types.ts";
import { countOf } from "../../shared/count-of.ts";
import { formatBytes } from "../../shared/bytes.ts";
import { isObject } from "../../shared/is-object.ts";
import { byLine, formatProblems, type ImportProblem } from "./import-problems.ts";
import {
  isPiHeader,
  readJsonLines,
  readPiSession,
  writePiSession,
  type PiSessionHeader,
} from "./pi-session-file.ts";
import { readSessionTree, type RawEntry } from "./session-tree-read.ts";
import { positiveInt } from "../../shared/positive-int.ts";

export { formatProblems, type ImportProblem } from "./import-problems.ts";

/**
 * Session files. The playground's own format is JSONL by default, like pi's session files: a header line,
 * then one line per entry of the session tree (each exactly as pi writes it), then one line per recorded
 * model call (its summary and body), so a file can be appended to, grepped, and an import error can name its
 * line. A single JSON document is offered too, for tools that want one value. A third kind is pi coding
 * agent's own session file (see pi-session-file.ts), which pi opens and continues.
 *
 * Import reads all of these, and older exports: version 1 (the facts of the path, a flat list) and
 * version 0 (a bare JSON array of messages).
 */
export const EXPORT_FORMAT = "pi-playground-session";
/** 1: the facts on the path. 2: the whole tree of entries, its leaf, and the recorded model calls. */
export const EXPORT_VERSION = 2;
/** The type of a recorded call's line; calls have no id, which tells them from any entry. */
const CALL_LINE = "playground-call";

/** Everything an export writes of a session. */
export interface SessionSnapshot {
  id: string;
  title: string;
  titleIsCustom: boolean;
  createdAt: number;
  settings: SessionSettings;
  /** Every entry of the tree, in order of creation. */
  entries: readonly SessionEntry[];
  leafId: string | null;
  /** Set when the session came from a pi session file: written back when exported to pi's format. */
  piHeader?: PiSessionHeader | undefined;
  calls: readonly NewCall[];
}

export type ExportKind = "jsonl" | "json" | "pi";

/** The file's text, and what the person should know about what it does not carry. */
export function exportSession(
  session: SessionSnapshot,
  kind: ExportKind,
  now = Date.now(),
): { text: string; notes: string[] } {
  if (kind === "pi") {
    const written = writePiSession({ ...session, sessionId: session.id, header: session.piHeader }, now);
    return { text: written.text, notes: [...written.notes, ...lostOnPi(session)] };
  }
  const header = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date(now).toISOString(),
    title: session.title,
    titleIsCustom: session.titleIsCustom,
    settings: session.settings,
    leafId: session.leafId,
    ...(session.piHeader ? { piHeader: session.piHeader } : {}),
  };
  const entries = session.entries.map(entryForFile);
  if (kind === "json")
    return {
      text: `${JSON.stringify({ ...header, entries, calls: session.calls }, null, 2)}\n`,
      notes: [],
    };
  const lines = [
    JSON.stringify({ type: "session", ...header }),
    ...entries.map((entry) => JSON.stringify(entry)),
    ...session.calls.map((call) => JSON.stringify({ type: CALL_LINE, ...call })),
  ];
  return { text: `${lines.join("\n")}\n`, notes: [] };
}

/** What a session of the playground has that pi's file and pi's conversion do not keep. */
function lostOnPi(session: SessionSnapshot): string[] {
  const notes: string[] = [];
  const { policies, applyCompaction } = session.settings.context;
  const asText = POLICY_ROLES.filter(
    (role) =>
      policies[role] === "userText" &&
      session.entries.some((entry) => entry.type === "message" && entry.message.role === role),
  );
  if (asText.length > 0)
    notes.push(
      `pi's convertToLlm drops ${asText.join(", ")} messages, which this session sends the model as user text: in pi the model reads none of them`,
    );
  if (!applyCompaction)
    notes.push("pi always applies compaction, which this session shows the model without");
  if (session.calls.length > 0)
    notes.push(
      `the ${countOf(session.calls.length, "recorded model call")} ${session.calls.length === 1 ? "stays" : "stay"} here: pi's files have no place for them (an export as JSONL keeps them)`,
    );
  return notes;
}

export function exportFileName(title: string, kind: ExportKind, now = Date.now()): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "session";
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return kind === "pi" ? `${slug}-${stamp}.pi.jsonl` : `${slug}-${stamp}.${kind}`;
}

export type ImportSource = "jsonl" | "json" | "json-v0" | "pi-session";

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
}

export class ImportError extends Error {}

/**
 * Largest session file read: it is read into memory whole, parsed, and then copied into storage, so a
 * file several times this size could exhaust the tab before anything is shown. Of a longer JSONL file,
 * the lines within this size are offered for import. A build may change it (`VITE_MAX_IMPORT_BYTES`).
 */
export const MAX_IMPORT_BYTES = positiveInt(import.meta.env?.VITE_MAX_IMPORT_BYTES) ?? 64 * 1024 * 1024;

/**
 * Read and parse a chosen file. Of a file over the size limit only the first `MAX_IMPORT_BYTES` are read:
 * a JSONL file is offered up to its last complete line (a problem says where it stops); a JSON document
 * cannot be read in part, and is refused.
 */
export async function readSessionFile(
  file: Pick<File, "name" | "size" | "text" | "slice">,
): Promise<ParsedImport> {
  if (file.size <= MAX_IMPORT_BYTES) return parseSessionFile(await file.text(), file.name);
  const tooLarge = `${file.name} is ${formatBytes(file.size)}; the playground imports session files up to ${formatBytes(MAX_IMPORT_BYTES)}`;
  const head = await file.slice(0, MAX_IMPORT_BYTES).text();
  const end = head.lastIndexOf("\n");
  const firstLine = head.slice(0, head.indexOf("\n"));
  if (end === -1 || !isObject(tryJson(firstLine))) throw new ImportError(`${tooLarge}.`);
  const complete = head.slice(0, end + 1);
  const parsed = parseSessionFile(complete, file.name);
  const linesRead = complete.split("\n").length - 1;
  const lastEntry = parsed.entries.at(-1)?.id;
  parsed.problems = [
    ...parsed.problems,
    {
      line: linesRead + 1,
      message: `${tooLarge}: it is read up to line ${linesRead}${lastEntry ? ` (the last entry read is ${lastEntry})` : ""}, and the lines after it are not imported`,
    },
  ];
  return parsed;
}

/** Parse a session file of any supported kind; throws ImportError when nothing in it can be used. */
export function parseSessionFile(text: string, fileName = "session"): ParsedImport {
  const trimmed = text.trim();
  if (trimmed === "") throw new ImportError(`${fileName} is empty.`);
  // A whole-file JSON value is a document (current or older); anything else is read line by line.
  const document = tryJson(trimmed);
  if (
    Array.isArray(document) ||
    (isObject(document) && (Array.isArray(document.messages) || Array.isArray(document.entries)))
  )
    return parseDocument(document, fileName);
  // (A JSONL file of one line, its header, is read as lines.)
  if (
    trimmed.startsWith("[") ||
    (isObject(document) && document.format === EXPORT_FORMAT && document.type !== "session")
  ) {
    return parseDocument(document ?? {}, fileName);
  }
  return parseLines(text, fileName);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseDocument(document: unknown, fileName: string): ParsedImport {
  if (Array.isArray(document)) {
    return flat(
      document.map((value, index) => ({ line: index + 1, value })),
      [],
      { title: titleFrom(fileName), titleIsCustom: false, settings: readSettings({}), source: "json-v0" },
      fileName,
    );
  }
  if (!isObject(document) || !(Array.isArray(document.messages) || Array.isArray(document.entries))) {
    throw new ImportError(`${fileName} is JSON but not a session: expected a "messages" or "entries" list.`);
  }
  checkVersion(document, fileName);
  checkSettingsDepth(document.settings, fileName, "its settings");
  const about = aboutFrom(document, fileName, "json");
  if (Array.isArray(document.entries)) {
    const entries = document.entries.map((value, index) => ({
      line: index + 1,
      place: `entries[${index}]`,
      value,
    }));
    const calls = (Array.isArray(document.calls) ? document.calls : []).map((value, index) => ({
      line: entries.length + index + 1,
      place: `calls[${index}]`,
      value,
    }));
    return tree(document, { line: 0, place: "leafId" }, entries, calls, [], about, fileName);
  }
  return flat(
    (document.messages as unknown[]).map((value, index) => ({ line: index + 1, value })),
    [],
    about,
    fileName,
  );
}

interface About {
  title: string;
  titleIsCustom: boolean;
  settings: SessionSettings;
  source: ImportSource;
}

function aboutFrom(header: Record<string, unknown>, fileName: string, source: ImportSource): About {
  const titled = typeof header.title === "string" && header.title.trim() !== "";
  return {
    title: titled ? (header.title as string) : titleFrom(fileName),
    titleIsCustom: titled && header.titleIsCustom !== false,
    settings: readSettings(isObject(header.settings) ? header.settings : {}),
    source,
  };
}

function checkVersion(header: Record<string, unknown>, fileName: string): void {
  if (header.format !== undefined && header.format !== EXPORT_FORMAT) {
    throw new ImportError(`${fileName} is a "${String(header.format)}" file, not a playground session.`);
  }
  if (typeof header.version === "number" && header.version > EXPORT_VERSION) {
    throw new ImportError(
      `${fileName} was exported by a newer version of the playground (format version ${header.version}); this one reads up to ${EXPORT_VERSION}.`,
    );
  }
}

function parseLines(text: string, fileName: string): ParsedImport {
  const { values, problems } = readJsonLines(text);
  const first = values[0]?.value;
  if (isObject(first) && first.type === "session" && first.format === EXPORT_FORMAT) {
    const line = values[0]?.line ?? 1;
    checkVersion(first, fileName);
    checkSettingsDepth(first.settings, fileName, `the settings on line ${line}`);
    const about = aboutFrom(first, fileName, "jsonl");
    const rest = values.slice(1);
    if (typeof first.version === "number" && first.version >= 2) {
      const isCall = (raw: RawEntry) =>
        isObject(raw.value) && raw.value.type === CALL_LINE && !("id" in raw.value);
      return tree(
        first,
        { line },
        rest.filter((raw) => !isCall(raw)),
        rest.filter(isCall),
        problems,
        about,
        fileName,
      );
    }
    return flat(rest, problems, about, fileName);
  }
  // A session header of another kind, or entries with types: pi's session files (with or without header).
  if (values.some((raw) => isObject(raw.value) && typeof raw.value.type === "string"))
    return piFile(values, problems, fileName);
  return flat(
    values,
    problems,
    { title: titleFrom(fileName), titleIsCustom: false, settings: readSettings({}), source: "jsonl" },
    fileName,
  );
}

/** A pi coding agent session file: the tree, its header, its name; settings come from its path later. */
function piFile(values: RawEntry[], jsonProblems: ImportProblem[], fileName: string): ParsedImport {
  const read = readPiSession(values);
  const problems = [...jsonProblems, ...read.problems].sort(byLine);
  noEntries(read.entries.length, problems, fileName);
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
  };
}

/** The playground's own format from version 2 on: the tree, its leaf, and the recorded calls. */
function tree(
  header: Record<string, unknown>,
  /** Where the header's `leafId` is: its line, or the field of a JSON document. */
  leafPlace: Pick<ImportProblem, "line" | "place">,
  entryRaws: RawEntry[],
  callRaws: RawEntry[],
  jsonProblems: ImportProblem[],
  about: About,
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

function noEntries(count: number, problems: readonly ImportProblem[], fileName: string): void {
  if (count === 0 && problems.length > 0)
    throw new ImportError(`${fileName} has no importable entry. ${formatProblems(problems)}`);
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

/** A stored call as a store records it anew: without the session and number it had. */
export function newCallOf(summary: CallRecord, body: CallBodyRecord): NewCall {
  const { schema: _schema, sessionId: _session, seq: _seq, ...summaryFields } = summary;
  const { schema: _bodySchema, sessionId: _bodySession, seq: _bodySeq, ...bodyFields } = body;
  return { summary: summaryFields, body: bodyFields };
}

/** Files from before sessions were trees: the facts of the path, one after the other. */
function flat(
  values: readonly RawEntry[],
  jsonProblems: ImportProblem[],
  about: About,
  fileName: string,
): ParsedImport {
  const messages: AgentMessage[] = [];
  const problems = [...jsonProblems];
  for (const { line, value } of values) {
    let message = value;
    if (isObject(value) && typeof value.type === "string") {
      if (value.type === "session") continue;
      if (value.type !== "message") {
        problems.push({ line, message: `a ${value.type} entry in a file of messages; skipped` });
        continue;
      }
      message = value.message;
    }
    // Checked before anything walks the value recursively: validation, storage and display all would.
    if (nestsDeeperThan(message)) {
      problems.push({ line, message: `the message nests ${tooDeepMessage()}` });
      continue;
    }
    const validation = validateMessage(message);
    if (validation.ok) messages.push(validation.message);
    else problems.push({ line, message: describeErrors(validation.errors) });
  }
  problems.sort(byLine);
  if (messages.length === 0 && problems.length > 0) {
    throw new ImportError(`${fileName} has no importable message. ${formatProblems(problems)}`);
  }
  const entries = chainEntries(messages, null);
  return {
    ...about,
    entries,
    leafId: entries.at(-1)?.id ?? null,
    calls: [],
    problems,
    notes: [],
    addSystemFact: messages[0]?.role !== "system",
  };
}

/** Settings hold queued messages too: a header nested too deeply refuses the whole file, naming where. */
function checkSettingsDepth(settings: unknown, fileName: string, where: string): void {
  if (nestsDeeperThan(settings, MAX_NESTING_DEPTH)) {
    throw new ImportError(`${fileName} cannot be imported: ${where} nest ${tooDeepMessage()}.`);
  }
}

function titleFrom(fileName: string): string {
  return `Imported: ${fileName.replace(/(\.pi)?\.(jsonl?|txt)$/i, "")}`;
}
