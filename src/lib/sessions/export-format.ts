import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { createBranchSummary, createCompactionSummary, createCustomMessage } from "../messages/factories.ts";
import { MAX_NESTING_DEPTH, nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { describeErrors, validateMessage } from "../messages/validate.ts";
import { readSettings, type SessionSettings } from "../agent/session-settings.ts";
import { formatBytes } from "../../shared/bytes.ts";
import { isObject } from "../../shared/is-object.ts";

/**
 * Session files. The default is JSONL, one entry per line, like pi's own session files: a header line,
 * then one line per message. Line-oriented files can be appended to and inspected with grep, and an
 * error can name the line it is on. A single JSON document is offered too, for tools that want one value.
 *
 * Import also reads: version-0 files (a bare JSON array of messages, the shape of the earliest exports),
 * and pi coding-agent session files (their message, compaction, branch_summary and custom_message entries).
 */
export const EXPORT_FORMAT = "pi-playground-session";
export const EXPORT_VERSION = 1;

export interface ExportedSession {
  title: string;
  settings: SessionSettings;
  messages: AgentMessage[];
}

export type ExportKind = "jsonl" | "json";

export function exportSession(session: ExportedSession, kind: ExportKind, now = Date.now()): string {
  const header = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date(now).toISOString(),
    title: session.title,
    settings: session.settings,
  };
  if (kind === "json") return `${JSON.stringify({ ...header, messages: session.messages }, null, 2)}\n`;
  const lines = [
    JSON.stringify({ type: "session", ...header }),
    ...session.messages.map((message) => JSON.stringify({ type: "message", message })),
  ];
  return `${lines.join("\n")}\n`;
}

export function exportFileName(title: string, kind: ExportKind, now = Date.now()): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "session";
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return `${slug}-${stamp}.${kind}`;
}

export interface ImportProblem {
  /** 1-based line of the file (for JSON documents: the message's position in the list). */
  line: number;
  message: string;
}

export interface ParsedImport {
  title: string;
  settings: SessionSettings;
  messages: AgentMessage[];
  /** Lines that could not be imported; the file is imported without them only if the person agrees. */
  problems: ImportProblem[];
  /** What kind of file it was, for the confirmation text. */
  source: "jsonl" | "json" | "json-v0" | "pi-session";
  /** Entries of a pi session file that have no counterpart here (model changes, labels…), counted by type. */
  skippedEntries: Record<string, number>;
}

export class ImportError extends Error {}

const MAX_PROBLEMS_REPORTED = 20;

/**
 * Largest session file accepted: it is read into memory whole, parsed, and then copied into storage, so a
 * file several times this size could exhaust the tab before anything is shown.
 */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** Read and parse a chosen file, refusing one too large to import before reading it. */
export async function readSessionFile(file: Pick<File, "name" | "size" | "text">): Promise<ParsedImport> {
  if (file.size > MAX_IMPORT_BYTES) {
    throw new ImportError(
      `${file.name} is ${formatBytes(file.size)}; the playground imports session files up to ${formatBytes(MAX_IMPORT_BYTES)}.`,
    );
  }
  return parseSessionFile(await file.text(), file.name);
}

/** Parse a session file of any supported kind; throws ImportError when nothing in it can be used. */
export function parseSessionFile(text: string, fileName = "session"): ParsedImport {
  const trimmed = text.trim();
  if (trimmed === "") throw new ImportError(`${fileName} is empty.`);
  // A whole-file JSON value is a document (current or version 0); anything else is read line by line.
  const document = tryJson(trimmed);
  if (Array.isArray(document) || (isObject(document) && Array.isArray(document.messages)))
    return parseDocument(document, fileName);
  if (trimmed.startsWith("[") || (isObject(document) && document.format === EXPORT_FORMAT)) {
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
    return {
      ...collect(document.map((value, index) => ({ line: index + 1, value }))),
      title: titleFrom(fileName),
      settings: readSettings({}),
      source: "json-v0",
      skippedEntries: {},
    };
  }
  if (!isObject(document) || !Array.isArray(document.messages)) {
    throw new ImportError(`${fileName} is JSON but not a session: expected a "messages" list.`);
  }
  checkVersion(document, fileName);
  checkSettingsDepth(document.settings, fileName, "its settings");
  const collected = collect(document.messages.map((value, index) => ({ line: index + 1, value })));
  return {
    ...collected,
    title: typeof document.title === "string" && document.title.trim() ? document.title : titleFrom(fileName),
    settings: readSettings(isObject(document.settings) ? document.settings : {}),
    source: "json",
    skippedEntries: {},
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
  const lines = text.split(/\r?\n/);
  let title = titleFrom(fileName);
  let settings = readSettings({});
  let source: ParsedImport["source"] = "jsonl";
  const skippedEntries: Record<string, number> = {};
  const values: { line: number; value: unknown }[] = [];
  const problems: ImportProblem[] = [];

  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch (error) {
      problems.push({ line, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    if (!isObject(entry)) {
      problems.push({ line, message: "not a JSON object" });
      return;
    }
    switch (entry.type) {
      case "session":
        if (entry.format === EXPORT_FORMAT) {
          checkVersion(entry, fileName);
          checkSettingsDepth(entry.settings, fileName, `the settings on line ${line}`);
          if (typeof entry.title === "string" && entry.title.trim()) title = entry.title;
          settings = readSettings(isObject(entry.settings) ? entry.settings : {});
        } else {
          source = "pi-session";
        }
        return;
      case "message":
        values.push({ line, value: entry.message });
        return;
      case "compaction":
        source = "pi-session";
        values.push({
          line,
          value: createCompactionSummary(
            String(entry.summary ?? ""),
            Number(entry.tokensBefore ?? 0),
            timestampOf(entry),
          ),
        });
        return;
      case "branch_summary":
        source = "pi-session";
        values.push({
          line,
          value: createBranchSummary(
            String(entry.summary ?? ""),
            typeof entry.fromId === "string" ? entry.fromId : null,
            timestampOf(entry),
          ),
        });
        return;
      case "custom_message":
        source = "pi-session";
        values.push({
          line,
          value: createCustomMessage(
            String(entry.customType ?? "custom"),
            (entry.content as string) ?? "",
            entry.display !== false,
            entry.details,
            timestampOf(entry),
          ),
        });
        return;
      default:
        if (typeof entry.type === "string") {
          skippedEntries[entry.type] = (skippedEntries[entry.type] ?? 0) + 1;
          return;
        }
        // A bare message per line is accepted too.
        values.push({ line, value: entry });
    }
  });

  const collected = collect(values);
  const allProblems = [...problems, ...collected.problems].sort((a, b) => a.line - b.line);
  if (collected.messages.length === 0 && allProblems.length > 0) {
    throw new ImportError(`${fileName} has no importable message. ${formatProblems(allProblems)}`);
  }
  return { title, settings, messages: collected.messages, problems: allProblems, source, skippedEntries };
}

function timestampOf(entry: Record<string, unknown>): number {
  const value = entry.timestamp;
  if (typeof value === "number") return value;
  const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : 0;
}

function collect(values: { line: number; value: unknown }[]): {
  messages: AgentMessage[];
  problems: ImportProblem[];
} {
  const messages: AgentMessage[] = [];
  const problems: ImportProblem[] = [];
  for (const { line, value } of values) {
    // Checked before anything walks the value recursively: validation, storage and display all would.
    if (nestsDeeperThan(value)) {
      problems.push({ line, message: `the message nests ${tooDeepMessage()}` });
      continue;
    }
    const validation = validateMessage(value);
    if (validation.ok) messages.push(validation.message);
    else problems.push({ line, message: describeErrors(validation.errors) });
  }
  return { messages, problems };
}

/** Settings hold queued messages too: a header nested too deeply refuses the whole file, naming where. */
function checkSettingsDepth(settings: unknown, fileName: string, where: string): void {
  if (nestsDeeperThan(settings, MAX_NESTING_DEPTH)) {
    throw new ImportError(`${fileName} cannot be imported: ${where} nest ${tooDeepMessage()}.`);
  }
}

function titleFrom(fileName: string): string {
  return `Imported: ${fileName.replace(/\.(jsonl?|txt)$/i, "")}`;
}

/** "line 3: not valid JSON …; line 7: Unknown role …" — the first problems, with a count of the rest. */
export function formatProblems(problems: readonly ImportProblem[]): string {
  const shown = problems
    .slice(0, MAX_PROBLEMS_REPORTED)
    .map((problem) => `line ${problem.line}: ${problem.message}`);
  const more = problems.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}
