import type { ModelRef } from "../models/model-ref.ts";
import type { AgentMessage, ThinkingLevel } from "@earendil-works/pi-agent-core";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings, type Visibility } from "../messages/policies.ts";
import { POLICY_ROLES } from "../messages/types.ts";
import { describeErrors, validateMessage } from "../messages/validate.ts";
import { isObject } from "../../shared/is-object.ts";
import { DEMO_TOOL_NAMES } from "../../shared/demo-tool-names.ts";

/**
 * What is stored, record by record. Every record carries the schema version that wrote it, so a later
 * version can migrate old records on read; a record from a newer version is left untouched and skipped.
 */
export const SCHEMA_VERSION = 1;

/** Everything a session owns besides its facts. */
export interface SessionSettings {
  model: ModelRef;
  thinkingLevel: ThinkingLevel;
  context: ContextSettings;
  /** Tool name → whether calling it waits for a person's approval. */
  toolApprovals: Record<string, boolean>;
  /** Messages held for the next prompt ("next turn" delivery). */
  nextTurn: AgentMessage[];
}

/** The small per-session record the sessions list reads; never the messages. */
export interface SessionMeta {
  schema: number;
  id: string;
  title: string;
  /** True once a person renamed the session; until then the title follows the first user message. */
  titleIsCustom: boolean;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  /** Sequence number the next appended message gets; never reused, so skipped records are never overwritten. */
  nextSeq: number;
  settings: SessionSettings;
  /** Set on a session forked from another: where it branched off, so it can return with a summary. */
  forkedFrom?: ForkOrigin;
}

export interface ForkOrigin {
  sessionId: string;
  title: string;
  /** Index of the last fact the fork copied. */
  factIndex: number;
}

export interface MessageRecord {
  schema: number;
  sessionId: string;
  seq: number;
  message: AgentMessage;
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

/** A fact as this schema version stores it: both stores write exactly this shape. */
export function messageRecord(sessionId: string, seq: number, message: AgentMessage): MessageRecord {
  return { schema: SCHEMA_VERSION, sessionId, seq, message };
}

export function inflightRecord(sessionId: string, message: AgentMessage, tabId?: string): InflightRecord {
  return { schema: SCHEMA_VERSION, sessionId, message, savedAt: Date.now(), ...(tabId ? { tabId } : {}) };
}

export type ReadResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const THINKING_LEVELS = new Set(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);

/**
 * Schema migrations, oldest first: step N turns a version N record into version N+1. Version 0 is a
 * message stored bare, before records were wrapped and versioned.
 */
const MESSAGE_MIGRATIONS: ((record: Record<string, unknown>) => Record<string, unknown>)[] = [
  (record) =>
    "role" in record
      ? { schema: 1, sessionId: record.sessionId, seq: record.seq, message: stripKeys(record) }
      : { ...record, schema: 1 },
];

function stripKeys(record: Record<string, unknown>): Record<string, unknown> {
  const { sessionId: _sessionId, seq: _seq, schema: _schema, ...message } = record;
  return message;
}

function versionOf(record: Record<string, unknown>): number | undefined {
  const schema = record.schema ?? 0;
  return typeof schema === "number" && Number.isInteger(schema) && schema >= 0 ? schema : undefined;
}

/** Read a stored message record: migrate it if old, refuse it (with the reason) if damaged or too new. */
export function readMessageRecord(raw: unknown): ReadResult<MessageRecord> {
  if (!isObject(raw)) return { ok: false, reason: "the record is not an object" };
  let record = raw;
  const version = versionOf(record);
  if (version === undefined)
    return {
      ok: false,
      reason: `the record has an invalid schema version (${JSON.stringify(record.schema)})`,
    };
  if (version > SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `it was written by a newer version of the playground (schema ${version}, this one reads up to ${SCHEMA_VERSION})`,
    };
  }
  for (let step = version; step < SCHEMA_VERSION; step++) {
    const migrate = MESSAGE_MIGRATIONS[step];
    if (migrate) record = migrate(record);
  }
  if (typeof record.sessionId !== "string" || typeof record.seq !== "number") {
    return { ok: false, reason: "the record has no session id or sequence number" };
  }
  const validation = validateMessage(record.message);
  if (!validation.ok) return { ok: false, reason: describeErrors(validation.errors) };
  return {
    ok: true,
    value: {
      schema: SCHEMA_VERSION,
      sessionId: record.sessionId,
      seq: record.seq,
      message: validation.message,
    },
  };
}

/** Read session metadata, repairing settings field by field from defaults rather than refusing the session. */
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
  const settings = isObject(raw.settings) ? raw.settings : {};
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
      settings: readSettings(settings),
      ...(forkedFrom ? { forkedFrom } : {}),
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

function finiteOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

export function readSettings(raw: Record<string, unknown>): SessionSettings {
  const defaults = defaultSettings();
  const model =
    isObject(raw.model) && typeof raw.model.provider === "string" && typeof raw.model.id === "string"
      ? { provider: raw.model.provider, id: raw.model.id }
      : defaults.model;
  const thinkingLevel =
    typeof raw.thinkingLevel === "string" && THINKING_LEVELS.has(raw.thinkingLevel)
      ? (raw.thinkingLevel as ThinkingLevel)
      : defaults.thinkingLevel;
  const context = isObject(raw.context) ? raw.context : {};
  const policiesRaw = isObject(context.policies) ? context.policies : {};
  const policies = { ...DEFAULT_CONTEXT_SETTINGS.policies };
  for (const role of POLICY_ROLES) {
    const value = policiesRaw[role];
    if (value === "hidden" || value === "userText") policies[role] = value as Visibility;
  }
  const toolApprovals: Record<string, boolean> = { ...defaults.toolApprovals };
  if (isObject(raw.toolApprovals)) {
    for (const [name, value] of Object.entries(raw.toolApprovals))
      if (typeof value === "boolean") toolApprovals[name] = value;
  }
  const nextTurn = Array.isArray(raw.nextTurn)
    ? raw.nextTurn.flatMap((message) => {
        const validation = validateMessage(message);
        return validation.ok ? [validation.message] : [];
      })
    : [];
  return {
    model,
    thinkingLevel,
    context: {
      policies,
      applyCompaction:
        typeof context.applyCompaction === "boolean"
          ? context.applyCompaction
          : DEFAULT_CONTEXT_SETTINGS.applyCompaction,
    },
    toolApprovals,
    nextTurn,
  };
}

/** Tools that change something wait for approval by default; reading tools do not. */
const DEFAULT_TOOL_APPROVALS: Readonly<Record<string, boolean>> = {
  [DEMO_TOOL_NAMES.time]: false,
  [DEMO_TOOL_NAMES.arithmetic]: false,
  [DEMO_TOOL_NAMES.note]: true,
};

export function defaultSettings(): SessionSettings {
  return {
    model: { provider: "mirror", id: "mirror" },
    thinkingLevel: "off",
    context: DEFAULT_CONTEXT_SETTINGS,
    toolApprovals: { ...DEFAULT_TOOL_APPROVALS },
    nextTurn: [],
  };
}

export function readInflightRecord(raw: unknown): ReadResult<InflightRecord> {
  if (!isObject(raw) || typeof raw.sessionId !== "string")
    return { ok: false, reason: "the in-flight record has no session id" };
  const version = versionOf(raw);
  if (version === undefined || version > SCHEMA_VERSION)
    return { ok: false, reason: "the in-flight record was written by a newer version" };
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
