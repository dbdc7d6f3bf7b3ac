import type { SessionEntry } from "../messages/entries.ts";
import { entryForFile } from "../messages/entry-validate.ts";
import { POLICY_ROLES } from "../messages/types.ts";
import type { SessionSettings } from "../agent/session-settings.ts";
import type { CallBodyRecord, CallRecord, NewCall } from "../storage/records.ts";
import { countOf } from "../../shared/count-of.ts";
import { writePiSession, type PiSessionHeader } from "./pi-session-file.ts";

/**
 * Session files. The playground's own format is JSONL by default, like pi's session files: a header line,
 * then one line per entry of the session tree (each exactly as pi writes it), then one line per recorded
 * model call (its summary and body), so a file can be appended to, grepped, and an import error can name its
 * line. A single JSON document is offered too, for tools that want one value. A third kind is pi coding
 * agent's own session file (see pi-session-file.ts), which pi opens and continues.
 *
 * Import (import-file.ts) reads all of these, and older exports: version 1 (the facts of the path, a flat
 * list) and version 0 (a bare JSON array of messages).
 */
export const EXPORT_FORMAT = "pi-playground-session";
/** 1: the facts on the path. 2: the whole tree of entries, its leaf, and the recorded model calls. */
export const EXPORT_VERSION = 2;
/** The type of a recorded call's line; calls have no id, which tells them from any entry. */
export const CALL_LINE = "playground-call";

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

export function exportFileName(title: string, kind: ExportKind | "html", now = Date.now()): string {
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "session";
  const stamp = new Date(now).toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return kind === "pi" ? `${slug}-${stamp}.pi.jsonl` : `${slug}-${stamp}.${kind}`;
}

/** A stored call as a store records it anew: without the session and number it had. */
export function newCallOf(summary: CallRecord, body: CallBodyRecord): NewCall {
  const { schema: _schema, sessionId: _session, seq: _seq, ...summaryFields } = summary;
  const { schema: _bodySchema, sessionId: _bodySession, seq: _bodySeq, ...bodyFields } = body;
  return { summary: summaryFields, body: bodyFields };
}
