import { MAX_NESTING_DEPTH, nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { readSettings } from "../agent/session-settings.ts";
import { formatBytes } from "../../shared/bytes.ts";
import { isObject } from "../../shared/is-object.ts";
import { positiveInt } from "../../shared/positive-int.ts";
import { CALL_LINE, EXPORT_FORMAT, EXPORT_VERSION } from "./export-format.ts";
import { embeddedSession, looksLikeHtml } from "./html-export.ts";
import { parsePiSession, parsePlaygroundTree } from "./import-readers.ts";
import {
  isLharFileName,
  looksLikeLharDocument,
  looksLikeLharLines,
  parseLharDocument,
  parseLharLines,
} from "./lhar-import.ts";
import { parseFlatMessages } from "./legacy-import.ts";
import { boundedReport, clipForDisplay } from "./import-problems.ts";
import { aboutFrom, ImportError, titleFrom, type ParsedImport } from "./parsed-import.ts";
import { readJsonLines } from "./pi-session-file.ts";
import type { RawEntry } from "./session-tree-read.ts";

/**
 * Reading a chosen session file: which kind it is (a JSON document or JSON lines; the playground's own,
 * an older export of it, or pi's), whether this version can read it, and how much of a large one is read.
 * The readers themselves are in import-readers.ts and legacy-import.ts.
 */

/**
 * Largest session file read: it is read into memory whole, parsed, and then copied into storage, so a
 * file several times this size could exhaust the tab before anything is shown. Of a longer JSONL file,
 * the lines within this size are offered for import. A build may change it (`VITE_MAX_IMPORT_BYTES`).
 */
export const MAX_IMPORT_BYTES = positiveInt(import.meta.env?.VITE_MAX_IMPORT_BYTES) ?? 64 * 1024 * 1024;

/** How far reading a file has come: its bytes read, then its lines parsed (as characters of its text). */
export interface ReadProgress {
  phase: "reading" | "parsing";
  done: number;
  total: number;
}

export type OnReadProgress = (progress: ReadProgress) => void;

/**
 * Read and parse a chosen file. Of a file over the size limit only the first `MAX_IMPORT_BYTES` are read:
 * a JSONL file is offered up to its last complete line (a problem says where it stops); a JSON document
 * cannot be read in part, and is refused.
 */
export async function readSessionFile(
  file: Pick<File, "name" | "size" | "text" | "slice">,
  onProgress?: OnReadProgress,
): Promise<ParsedImport> {
  if (file.size <= MAX_IMPORT_BYTES)
    return boundedReport(parseSessionFile(await readText(file, onProgress), file.name, onProgress));
  const tooLarge = `${file.name} is ${formatBytes(file.size)}; the playground imports session files up to ${formatBytes(MAX_IMPORT_BYTES)}`;
  const head = await readText(file.slice(0, MAX_IMPORT_BYTES), onProgress);
  const end = head.lastIndexOf("\n");
  const firstLine = head.slice(0, head.indexOf("\n"));
  if (end === -1 || !isObject(tryJson(firstLine))) throw new ImportError(`${tooLarge}.`);
  const complete = head.slice(0, end + 1);
  const parsed = parseSessionFile(complete, file.name, onProgress);
  const linesRead = complete.split("\n").length - 1;
  const lastEntry = parsed.entries.at(-1)?.id;
  parsed.problems = [
    ...boundedReport(parsed).problems,
    {
      line: linesRead + 1,
      message: `${tooLarge}: it is read up to line ${linesRead}${lastEntry ? ` (the last entry read is ${clipForDisplay(lastEntry, 100)})` : ""}, and the lines after it are not imported`,
    },
  ];
  return { ...parsed, notes: boundedReport(parsed).notes };
}

/** A file's text; with `onProgress`, read as a stream so that the bytes read so far can be told. */
async function readText(blob: Pick<Blob, "size" | "text">, onProgress?: OnReadProgress): Promise<string> {
  if (!onProgress || !("stream" in blob) || typeof blob.stream !== "function") return blob.text();
  const reader = (blob as Blob).stream().getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let done = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    done += chunk.value.byteLength;
    parts.push(decoder.decode(chunk.value, { stream: true }));
    onProgress({ phase: "reading", done, total: blob.size });
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/** Parse a session file of any supported kind; throws ImportError when nothing in it can be used. */
export function parseSessionFile(
  text: string,
  fileName = "session",
  onProgress?: OnReadProgress,
): ParsedImport {
  const trimmed = text.trim();
  if (trimmed === "") throw new ImportError(`${fileName} is empty.`);
  // A session exported as HTML carries its JSON export, which is what is imported.
  if (looksLikeHtml(trimmed)) return parseSessionFile(embeddedSession(trimmed, fileName), fileName);
  // A whole-file JSON value is a document (current or older); anything else is read line by line.
  const document = tryJson(trimmed);
  // An LHAR file (Context Lens's, or the playground's own LHAR export): a session of calls.
  if (looksLikeLharDocument(document)) return parseLharDocument(document, fileName);
  const newline = trimmed.indexOf("\n");
  if (looksLikeLharLines(tryJson(newline === -1 ? trimmed : trimmed.slice(0, newline))))
    return parseLharLines(text, fileName);
  if (isLharFileName(fileName)) {
    if (!/\.json$/i.test(fileName)) return parseLharLines(text, fileName);
    if (document === undefined)
      throw new ImportError(`${fileName} is not a valid LHAR file: it is not JSON. Nothing was imported.`);
    return parseLharDocument(document, fileName);
  }
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
  return parseLines(text, fileName, onProgress);
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
    return parseFlatMessages(
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
    return parsePlaygroundTree(document, { line: 0, place: "leafId" }, entries, calls, [], about, fileName);
  }
  return parseFlatMessages(
    (document.messages as unknown[]).map((value, index) => ({ line: index + 1, value })),
    [],
    about,
    fileName,
  );
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

function parseLines(text: string, fileName: string, onProgress?: OnReadProgress): ParsedImport {
  const { values, problems } = readJsonLines(
    text,
    onProgress && ((done) => onProgress({ phase: "parsing", done, total: text.length })),
  );
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
      return parsePlaygroundTree(
        first,
        { line },
        rest.filter((raw) => !isCall(raw)),
        rest.filter(isCall),
        problems,
        about,
        fileName,
      );
    }
    return parseFlatMessages(rest, problems, about, fileName);
  }
  // A session header of another kind, or entries with types: pi's session files (with or without header).
  if (values.some((raw) => isObject(raw.value) && typeof raw.value.type === "string"))
    return parsePiSession(values, problems, fileName);
  return parseFlatMessages(
    values,
    problems,
    { title: titleFrom(fileName), titleIsCustom: false, settings: readSettings({}), source: "jsonl" },
    fileName,
  );
}

/** Settings hold queued messages too: a header nested too deeply refuses the whole file, naming where. */
function checkSettingsDepth(settings: unknown, fileName: string, where: string): void {
  if (nestsDeeperThan(settings, MAX_NESTING_DEPTH)) {
    throw new ImportError(`${fileName} cannot be imported: ${where} nest ${tooDeepMessage()}.`);
  }
}
