import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, Message, Usage } from "@earendil-works/pi-ai";
import type { SessionEntry } from "../messages/entries.ts";
import type { LharCategory } from "../messages/kinds/kind.ts";
import { validators } from "../messages/validators.ts";
import type { Captured, ProviderEndpoint } from "../../shared/api-types.ts";
import { isObject } from "../../shared/is-object.ts";

/**
 * What is stored, record by record. Every record carries the schema version that wrote it, so a later
 * version can migrate old records; a record from a newer version is left untouched and skipped.
 * Version 2 stores the session as a tree of entries (pi's session model); version 1 stored a flat list
 * of messages and is migrated when the database upgrades (see schema.ts).
 */
export const SCHEMA_VERSION = 2;

/**
 * The small per-session record the sessions list reads; never the entries. Storage does not interpret
 * `settings`: the session runtime reads and repairs them (agent/session-settings.ts).
 */
export interface SessionMeta {
  schema: number;
  id: string;
  title: string;
  /** True once a person renamed the session; until then the title follows the first user message. */
  titleIsCustom: boolean;
  createdAt: number;
  updatedAt: number;
  /** Entries stored. */
  messageCount: number;
  /** Sequence number the next appended entry gets; never reused, so skipped records are never overwritten. */
  nextSeq: number;
  /**
   * Counts every write (appends, replacements, leaf moves). Each entry record remembers the revision that
   * wrote it, so another tab catches up by comparing one number and reading only what is newer.
   */
  revision: number;
  /** The entry the session continues from; null while it is empty. */
  leafId: string | null;
  settings: unknown;
  /** Set on a session forked from another: where it branched off, so it can return with a summary. */
  forkedFrom?: ForkOrigin;
  /** Sequence number the next recorded model call gets (absent: no call recorded yet). */
  nextCallSeq?: number;
  /** Bytes of call bodies (messages and payloads) kept for this session, against its budget. */
  callBytes?: number;
  /** Set on a session imported from a pi session file: the file's header, written back by an export to pi. */
  piHeader?: Record<string, unknown>;
  /** Set on a session made by importing a file: which file, and when. */
  importedFrom?: ImportOrigin;
}

export interface ImportOrigin {
  fileName: string;
  at: number;
}

export interface ForkOrigin {
  sessionId: string;
  title: string;
  /** Index of the last fact the fork copied. */
  factIndex: number;
}

export interface EntryRecord {
  schema: number;
  sessionId: string;
  /** Order of creation within the session: the record's key. */
  seq: number;
  /** The session revision that wrote this version of the entry. */
  rev: number;
  entry: SessionEntry;
}

// The proxy serves payloads in this shape too, so it is shared with the server (api-types).
export type { Captured, ProviderEndpoint } from "../../shared/api-types.ts";

export type CaptureKept = Captured<unknown>["kept"];

/** Bytes of a body as kept in storage: what counts against a session's capture budget. */
export function keptBytes(body: Pick<CallBodyRecord, "messages" | "payload" | "reply">): number {
  const size = (part: Captured<unknown> | undefined) =>
    part?.kept === "all" ? part.bytes : part?.kept === "truncated" ? part.text.length : 0;
  return size(body.messages) + size(body.payload) + size(body.reply);
}

/** How a model call ended, and how long it took. */
export interface CallOutcome {
  stopReason: string;
  usage: Usage;
  /** Output estimated from what streamed, for a reply stopped before the provider reported usage. */
  outputEstimate?: number;
  errorMessage?: string;
}

export interface CallTiming {
  /** From the request to the first streamed token; absent when none came. */
  firstTokenMs?: number;
  durationMs: number;
  /** Output tokens over the time they streamed in. */
  outputTokensPerSecond?: number;
}

/**
 * One model call, as the stream function made it: the summary the calls list shows. Its heavy parts
 * (the messages as sent, the provider's payload) are in a `CallBodyRecord` under the same key, read when
 * the call is opened. Written once, when the call is over; never changed.
 */
export interface CallRecord {
  schema: number;
  sessionId: string;
  seq: number;
  /** Also names the call to the proxy, which keeps the provider payload it built under it. */
  id: string;
  startedAt: number;
  provider: string;
  modelId: string;
  api: string;
  /** The stream options sent (thinking level, max tokens, temperature, cache retention, …). */
  options: Record<string, unknown>;
  messageCount: number;
  /** The session's leaf when the request was made, and the reply the call produced. */
  leafId: string | null;
  replyEntryId?: string;
  /** Set on a call re-run with changes: the id of the recorded call it is a variant of. */
  variantOf?: string;
  /**
   * Set on a call of variants side by side: its set, column, turn, prompt and the column's settings
   * (agent/variant-sets/variant-set.ts reads it, as hostile input).
   */
  variantSet?: unknown;
  outcome: CallOutcome;
  timing: CallTiming;
  /** How much of the body was kept: the messages, and the provider's payload. */
  capture: { messages: CaptureKept; payload: CaptureKept; note?: string };
  /** Set on a call imported from another tool's capture: what that tool measured, shown as it was. */
  recorded?: RecordedMeasures;
}

/** A call's composition and window as another tool recorded them (an LHAR file's `context_lens`). */
export interface RecordedMeasures {
  format: "lhar";
  /** Tokens per category as the file gives them; they add up to the request's total. */
  composition: { category: LharCategory; tokens: number; count: number }[];
  /** The model's context window as the file gives it (0: unknown). */
  window: number;
}

export interface CallBodyRecord {
  schema: number;
  sessionId: string;
  seq: number;
  /** `context.messages` exactly as sent. */
  messages: Captured<Message[]>;
  /** For each message sent, the entry (fact) it came from; null for messages no fact produced. */
  sources: (string | null)[];
  /** The request body the provider adapter built, as the proxy captured it (secrets scrubbed). */
  payload: Captured<unknown>;
  /** Where that provider takes requests (keys as `$ENV_VAR`), as the proxy reported it; absent offline. */
  endpoint?: ProviderEndpoint;
  /** Set on a call a live pi coding agent made: what its hooks saw besides the model view. */
  pi?: PiCallLayer;
  /** A variant's reply: it is no fact of the session, so its call keeps it. */
  reply?: Captured<AssistantMessage>;
}

/** A live pi's call as its extension recorded it from pi's hooks. */
export interface PiCallLayer {
  /** The transcript pi sent, as its `context_with_system` hook saw it (after the `context` handlers). */
  transcript: Captured<AgentMessage[]>;
  /** The provider's answer: its status and the headers that matter (rate limits, request ids). */
  response?: { status: number; headers: Record<string, string> };
}

/** The assistant message that was streaming when the page last saved it; restored as interrupted. */
export interface InflightRecord {
  schema: number;
  sessionId: string;
  message: AgentMessage;
  savedAt: number;
  /** The tab that was streaming it: only once that tab is gone is the reply restored as interrupted. */
  tabId?: string;
}

export function callRecords(
  sessionId: string,
  seq: number,
  call: NewCall,
): { summary: CallRecord; body: CallBodyRecord } {
  return {
    summary: { ...call.summary, schema: SCHEMA_VERSION, sessionId, seq },
    body: { ...call.body, schema: SCHEMA_VERSION, sessionId, seq },
  };
}

/** A model call to record: the store gives it its session and sequence number. */
export interface NewCall {
  summary: Omit<CallRecord, "schema" | "sessionId" | "seq">;
  body: Omit<CallBodyRecord, "schema" | "sessionId" | "seq">;
}

export function entryRecord(sessionId: string, seq: number, rev: number, entry: SessionEntry): EntryRecord {
  return { schema: SCHEMA_VERSION, sessionId, seq, rev, entry };
}

export function inflightRecord(sessionId: string, message: AgentMessage, tabId?: string): InflightRecord {
  return { schema: SCHEMA_VERSION, sessionId, message, savedAt: Date.now(), ...(tabId ? { tabId } : {}) };
}

export type ReadResult<T> = { ok: true; value: T } | { ok: false; reason: string };

function versionOf(record: Record<string, unknown>): number | undefined {
  const schema = record.schema ?? 0;
  return typeof schema === "number" && Number.isInteger(schema) && schema >= 0 ? schema : undefined;
}

function newerOrInvalid(record: Record<string, unknown>, what: string): string | undefined {
  const version = versionOf(record);
  if (version === undefined)
    return `${what} has an invalid schema version (${JSON.stringify(record.schema)})`;
  if (version > SCHEMA_VERSION)
    return `it was written by a newer version of the playground (schema ${version}, this one reads up to ${SCHEMA_VERSION})`;
  if (version < SCHEMA_VERSION)
    return `${what} has schema ${version}, which the database upgrade should have migrated`;
  return undefined;
}

/** Read a stored entry record: refuse it (with the reason) if damaged or too new. */
export function readEntryRecord(raw: unknown): ReadResult<EntryRecord> {
  if (!isObject(raw)) return { ok: false, reason: "the record is not an object" };
  const refused = newerOrInvalid(raw, "the record");
  if (refused) return { ok: false, reason: refused };
  if (typeof raw.sessionId !== "string" || typeof raw.seq !== "number")
    return { ok: false, reason: "the record has no session id or sequence number" };
  const entry = validators().validateEntry(raw.entry);
  if (!entry.ok) return { ok: false, reason: entry.reason };
  return {
    ok: true,
    value: {
      schema: SCHEMA_VERSION,
      sessionId: raw.sessionId,
      seq: raw.seq,
      rev: finiteOr(raw.rev, 0),
      entry: entry.entry,
    },
  };
}

/** Read session metadata, repairing fields from defaults rather than refusing the session. */
export function readSessionMeta(raw: unknown): ReadResult<SessionMeta> {
  if (!isObject(raw) || typeof raw.id !== "string")
    return { ok: false, reason: "the session record has no id" };
  const version = versionOf(raw);
  if (version === undefined || version > SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `session ${raw.id} was written by a newer or unknown version (schema ${JSON.stringify(raw.schema)})`,
    };
  }
  const forkedFrom = readForkOrigin(raw.forkedFrom);
  return {
    ok: true,
    value: {
      schema: SCHEMA_VERSION,
      id: raw.id,
      title: typeof raw.title === "string" ? raw.title : "Untitled session",
      titleIsCustom: raw.titleIsCustom === true,
      createdAt: finiteOr(raw.createdAt, 0),
      updatedAt: finiteOr(raw.updatedAt, 0),
      messageCount: finiteOr(raw.messageCount, 0),
      nextSeq: finiteOr(raw.nextSeq, 0),
      revision: finiteOr(raw.revision, 0),
      leafId: typeof raw.leafId === "string" ? raw.leafId : null,
      settings: isObject(raw.settings) ? raw.settings : {},
      ...(forkedFrom ? { forkedFrom } : {}),
      ...(typeof raw.nextCallSeq === "number" ? { nextCallSeq: finiteOr(raw.nextCallSeq, 0) } : {}),
      ...(typeof raw.callBytes === "number" ? { callBytes: finiteOr(raw.callBytes, 0) } : {}),
      ...(isObject(raw.piHeader) ? { piHeader: raw.piHeader } : {}),
      ...(isObject(raw.importedFrom) && typeof raw.importedFrom.fileName === "string"
        ? { importedFrom: { fileName: raw.importedFrom.fileName, at: finiteOr(raw.importedFrom.at, 0) } }
        : {}),
    },
  };
}

function readForkOrigin(raw: unknown): ForkOrigin | undefined {
  if (!isObject(raw) || typeof raw.sessionId !== "string" || typeof raw.factIndex !== "number")
    return undefined;
  return {
    sessionId: raw.sessionId,
    title: typeof raw.title === "string" ? raw.title : "",
    factIndex: raw.factIndex,
  };
}

export function finiteOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

export function readInflightRecord(raw: unknown): ReadResult<InflightRecord> {
  if (!isObject(raw) || typeof raw.sessionId !== "string")
    return { ok: false, reason: "the in-flight record has no session id" };
  const version = versionOf(raw);
  if (version === undefined || version > SCHEMA_VERSION)
    return { ok: false, reason: "the in-flight record was written by a newer version" };
  const { validateMessage, describeErrors } = validators();
  const validation = validateMessage(raw.message);
  if (!validation.ok) return { ok: false, reason: describeErrors(validation.errors) };
  return {
    ok: true,
    value: {
      schema: SCHEMA_VERSION,
      sessionId: raw.sessionId,
      message: validation.message,
      savedAt: finiteOr(raw.savedAt, 0),
      ...(typeof raw.tabId === "string" ? { tabId: raw.tabId } : {}),
    },
  };
}

/**
 * Read a stored call summary. Calls are diagnostics: a damaged one is skipped (with the reason), never
 * repaired into something that was not sent.
 */
export function readCallRecord(raw: unknown): ReadResult<CallRecord> {
  if (!isObject(raw)) return { ok: false, reason: "the call record is not an object" };
  const refused = newerOrInvalid(raw, "the call record");
  if (refused) return { ok: false, reason: refused };
  const outcome = raw.outcome;
  const timing = raw.timing;
  const capture = raw.capture;
  if (
    typeof raw.sessionId !== "string" ||
    typeof raw.seq !== "number" ||
    typeof raw.id !== "string" ||
    typeof raw.provider !== "string" ||
    typeof raw.modelId !== "string" ||
    !isObject(outcome) ||
    typeof outcome.stopReason !== "string" ||
    !isObject(outcome.usage) ||
    !isObject(timing) ||
    !isObject(capture)
  )
    return { ok: false, reason: "the call record lacks its model, outcome or timing" };
  return { ok: true, value: raw as unknown as CallRecord };
}

export function readCallBody(raw: unknown): ReadResult<CallBodyRecord> {
  if (!isObject(raw)) return { ok: false, reason: "the call body is not an object" };
  const refused = newerOrInvalid(raw, "the call body");
  if (refused) return { ok: false, reason: refused };
  if (!isCaptured(raw.messages) || !isCaptured(raw.payload) || !Array.isArray(raw.sources))
    return { ok: false, reason: "the call body is damaged" };
  // A damaged endpoint costs the curl export its target, never the call.
  const { endpoint, ...body } = raw;
  return {
    ok: true,
    value: { ...(body as unknown as CallBodyRecord), ...(isEndpoint(endpoint) ? { endpoint } : {}) },
  };
}

function isEndpoint(value: unknown): value is ProviderEndpoint {
  return (
    isObject(value) &&
    typeof value.url === "string" &&
    isObject(value.headers) &&
    Object.values(value.headers).every((header) => typeof header === "string")
  );
}

function isCaptured(value: unknown): boolean {
  return isObject(value) && (value.kept === "all" || value.kept === "truncated" || value.kept === "none");
}
