import {
  arr,
  bool,
  compile,
  lit,
  map,
  nul,
  nullable,
  num,
  obj,
  opt,
  str,
  union,
  unknown,
  type Properties,
} from "@earendil-works/pi-schema";
import { isObject } from "../../shared/is-object.ts";
import { PI_ENTRY_TYPES, type SessionEntry, type UnknownEntry } from "./entries.ts";
import { describeErrors, validateMessage } from "./validate.ts";

/**
 * Checks of session entries read from storage or from a pi session file. The fields common to every entry
 * (id, parent, time) and those of each type come from one table; a message entry's message is checked by
 * the message validator, as pi reads it. A type this version does not know is not an error: it is kept as
 * it was. An entry is read as pi's code reads it wherever pi can: a time that is not an ISO string is
 * read as pi's `new Date(...)` reads it, and a compaction without its size keeps none.
 */
export type EntryValidation =
  | {
      ok: true;
      entry: SessionEntry;
      unknownType?: string;
      /** What was changed to the value pi reads (the entry differs from the file's line): damage. */
      repairs?: string[];
      /** Values pi's types do not allow but pi reads as they are, kept so. */
      readAs?: string[];
    }
  | { ok: false; reason: string };

const usage = map(unknown());
const content = union([str(), arr(map(unknown()))]);

const FIELDS: Record<(typeof PI_ENTRY_TYPES)[number], Properties> = {
  message: { message: map(unknown()) },
  thinking_level_change: { thinkingLevel: str() },
  model_change: { provider: str(), modelId: str() },
  usage: { kind: str(), provider: str(), model: str(), usage },
  compaction: {
    summary: str(),
    firstKeptEntryId: str(),
    // Missing in some files; pi's summary then has none (see READ_AS).
    tokensBefore: opt(num()),
    usage: opt(usage),
    fromHook: opt(bool()),
    systemMessage: opt(map(unknown())),
  },
  branch_summary: { fromId: str(), summary: str(), usage: opt(usage), fromHook: opt(bool()) },
  custom: { customType: str() },
  label: { targetId: str(), label: opt(union([str(), nul()])) },
  session_info: { name: opt(str()) },
  custom_message: { customType: str(), content, display: bool() },
  context_edit: { targetId: str(), replacement: nullable(obj({ content }, { open: true })) },
};

const BASE = { id: str({ minLength: 1 }), parentId: nullable(str()), timestamp: str() };

const validator = compile(
  union(
    Object.entries(FIELDS).map(([type, fields]) =>
      obj({ type: lit(type), ...BASE, ...fields }, { open: true }),
    ),
  ),
);

const KNOWN = new Set<string>(PI_ENTRY_TYPES);

/**
 * An entry time as pi reads it, `new Date(timestamp)` whatever the value (null is 1970, a number its
 * milliseconds), written as pi writes times: the ISO string, or the empty string where pi's date is invalid.
 */
function piTime(value: unknown): string {
  const time = new Date(value as number);
  return Number.isFinite(time.getTime()) ? time.toISOString() : "";
}

export function validateEntry(raw: unknown): EntryValidation {
  if (!isObject(raw)) return { ok: false, reason: "an entry must be a JSON object" };
  const type = raw.type;
  if (typeof type !== "string" || type === "") return { ok: false, reason: "the entry has no type" };
  // The stand-in for an unknown type, as storage holds it: read back as it was stored, not wrapped again.
  if (type === "unknown" && isStoredUnknown(raw)) {
    const original = typeof raw.original.type === "string" ? raw.original.type : type;
    return { ok: true, unknownType: original, entry: raw as unknown as UnknownEntry };
  }
  if (!KNOWN.has(type)) {
    if (typeof raw.id !== "string" || (raw.parentId !== null && typeof raw.parentId !== "string"))
      return { ok: false, reason: `the ${type} entry has no id or parent` };
    return {
      ok: true,
      unknownType: type,
      entry: {
        type: "unknown",
        id: raw.id,
        parentId: raw.parentId,
        timestamp: typeof raw.timestamp === "string" ? raw.timestamp : "",
        original: raw,
      },
    };
  }
  const repairs: string[] = [];
  const readAs: string[] = [];
  let value: Record<string, unknown> = raw;
  if (typeof raw.timestamp !== "string") {
    value = { ...value, timestamp: piTime(raw.timestamp) };
    repairs.push(
      `its timestamp is ${raw.timestamp === undefined ? "missing" : `not a date string (${JSON.stringify(raw.timestamp)})`}; read as pi reads it${value.timestamp ? ` (${String(value.timestamp)})` : " (no valid time)"}`,
    );
  }
  const checked: unknown = value;
  if (!validator.check(checked)) {
    const problems = validator
      .errors(checked)
      .map((error) => `${error.path.slice(1).replaceAll("/", ".") || "the entry"}: ${error.message}`);
    return { ok: false, reason: `the ${type} entry is not valid (${problems.join("; ")})` };
  }
  if (type === "compaction" && value.tokensBefore === undefined)
    readAs.push("the compaction has no tokensBefore: kept so, as pi keeps it");
  if (type === "message") {
    const message = validateMessage(value.message, { asPiReads: true });
    if (!message.ok) return { ok: false, reason: describeErrors(message.errors) };
    readAs.push(...(message.readAs ?? []).map((note) => note.message));
    if (message.repaired) {
      value = { ...value, message: message.message };
      repairs.push(message.repaired.message);
    }
  }
  return {
    ok: true,
    entry: value as unknown as SessionEntry,
    ...(repairs.length > 0 ? { repairs } : {}),
    ...(readAs.length > 0 ? { readAs } : {}),
  };
}

function isStoredUnknown(
  raw: Record<string, unknown>,
): raw is Record<string, unknown> & { original: Record<string, unknown> } {
  return (
    isObject(raw.original) &&
    typeof raw.id === "string" &&
    (raw.parentId === null || typeof raw.parentId === "string") &&
    raw.original.id === raw.id
  );
}

/** The entry as pi's session file holds it: an unknown one exactly as it was read. */
export function entryForFile(entry: SessionEntry): Record<string, unknown> {
  return entry.type === "unknown" ? entry.original : (entry as unknown as Record<string, unknown>);
}
