import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  arr,
  bool,
  compile,
  int,
  lit,
  map,
  nul,
  nullable,
  num,
  obj,
  oneOf,
  opt,
  str,
  union,
  unknown,
  type Schema,
  type ValidationError,
} from "@earendil-works/pi-schema";
import { isObject } from "../../shared/is-object.ts";
import { STOP_REASONS } from "../../shared/enums.ts";
import { APPROVAL_STATUSES, CUSTOM_ROLES, LLM_ROLES, NOTIFICATION_LEVELS } from "./types.ts";

/**
 * Runtime validation of session facts that come from people or files: the injection dialog, imported
 * sessions and records read back from storage all pass through here, so each gets the same rules and
 * the same messages. One table of fields per role drives both the JSON Schema (compiled once by pi's own
 * schema package, whose check costs next to nothing on the valid path that storage reads take) and the
 * sentence shown next to each field when a value fails.
 *
 * The table holds pi's types, and for some fields a wider shape that pi's code reads without checking
 * (`readAs`): a message read from a file or storage (`asPiReads`) may have it, and is then kept as pi
 * keeps it, with a note per field: no content (read as empty, as pi reads it), usage without a cost or a
 * total, a stop reason or a content block pi's types do not have, a compaction without its size. What
 * stays refused is what the page could not show: values of another kind than pi's types name.
 */

export interface FieldError {
  /** Dotted path of the offending field ("exitCode", "content[1].text"); "" for the message as a whole. */
  field: string;
  message: string;
}

export type Validation =
  | {
      ok: true;
      message: AgentMessage;
      /** Read as pi reads it, though pi's types do not allow it (only with `asPiReads`); one note per field. */
      readAs?: FieldError[];
      /** What was changed to the value pi reads (a missing content made empty). */
      repaired?: FieldError;
    }
  | { ok: false; errors: FieldError[] };

type PartType = "text" | "thinking" | "image" | "toolCall";

/** One field of a message: its schema, and the sentence that explains a failure at (or under) it. */
interface Field {
  schema: Schema;
  optional: boolean;
  explain: (name: string, error: ValidationError, rest: string[], value: unknown) => FieldError;
  /** A wider shape pi's code reads, and what is said of a value that has it. */
  readAs?: { schema: Schema; optional: boolean; note: (name: string, value: unknown) => string };
}

const at = (field: string, message: string): FieldError => ({ field, message });

function text({ optional = false, nonEmpty = false } = {}): Field {
  return {
    schema: str(nonEmpty ? { pattern: "\\S" } : {}),
    optional,
    explain: (name, error) =>
      error.keyword === "pattern"
        ? at(name, `${name} must not be empty.`)
        : at(name, `${name} must be text${optional ? " when given" : ""}.`),
  };
}

function boolean({ optional = false } = {}): Field {
  return { schema: bool(), optional, explain: (name) => at(name, `${name} must be true or false.`) };
}

function number({
  optional = false,
  integer = false,
  min,
  max,
}: { optional?: boolean; integer?: boolean; min?: number; max?: number } = {}): Field {
  const bounds = {
    ...(min !== undefined ? { minimum: min } : {}),
    ...(max !== undefined ? { maximum: max } : {}),
  };
  return {
    schema: integer ? int(bounds) : num(bounds),
    optional,
    explain: (name, error, _rest, value) => {
      if (error.keyword === "minimum") return at(name, `${name} must be at least ${min}.`);
      if (error.keyword === "maximum") return at(name, `${name} must be at most ${max}.`);
      if (integer && typeof value === "number" && Number.isFinite(value))
        return at(name, `${name} must be a whole number.`);
      return at(name, `${name} must be a number${optional ? " or left empty" : ""}.`);
    },
  };
}

function choice(options: readonly string[], { optional = false } = {}): Field {
  return {
    schema: oneOf(options),
    optional,
    explain: (name) => at(name, `${name} must be one of ${options.join(", ")}.`),
  };
}

function sentence(name: string, message: string): Field {
  return { schema: unknown(), optional: false, explain: () => at(name, message) };
}

const PART_TYPES = ["text", "thinking", "image", "toolCall"] as const satisfies readonly PartType[];

const PART_SCHEMAS: Record<PartType, Schema> = {
  text: obj({ type: lit("text"), text: str() }, { open: true }),
  thinking: obj({ type: lit("thinking"), thinking: str() }, { open: true }),
  image: obj({ type: lit("image"), data: str(), mimeType: str() }, { open: true }),
  toolCall: obj({ type: lit("toolCall"), id: str(), name: str(), arguments: map(unknown()) }, { open: true }),
};

function explainPart(where: string, part: unknown, allowed: readonly PartType[], rest: string[]): FieldError {
  const type = isObject(part) ? part.type : undefined;
  if (typeof type !== "string" || !(allowed as readonly string[]).includes(type))
    return at(where, `${where} must be a part of type ${allowed.join(" or ")}.`);
  switch (type as PartType) {
    case "text":
      return at(`${where}.text`, `${where}.text must be text.`);
    case "thinking":
      return at(`${where}.thinking`, `${where}.thinking must be text.`);
    case "image":
      return at(where, `${where} (image) needs base64 "data" and a "mimeType".`);
    case "toolCall":
      return at(where, `${where} (toolCall) needs an "id", a "name" and "arguments" as an object.`);
  }
  return at([where, ...rest].join("."), `${where} is not a valid content part.`);
}

/** A block of a type no part schema names (a later pi's, an extension's, a server's own). */
const OTHER_PART = obj({ type: str({ pattern: `^(?!(?:${PART_TYPES.join("|")})$)` }) }, { open: true });

/** What pi's code reads of a content list: any known block in its own shape, or a block of another type. */
const ANY_PARTS = arr(union([...PART_TYPES.map((type) => PART_SCHEMAS[type]), OTHER_PART]));

function contentNote(name: string, value: unknown, allowed: readonly PartType[]): string {
  if (value == null) return `${name} is missing: read as empty, as pi reads it`;
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  const index = list.findIndex(
    (part) => !isObject(part) || !(allowed as readonly unknown[]).includes(part.type),
  );
  const part = list[index];
  const type = isObject(part) ? JSON.stringify(part.type) : "?";
  return `${name}[${index}] is a block of type ${type}, which pi's types do not have here: kept, and sent as pi sends it`;
}

function parts(allowed: readonly PartType[], { orString = false, missing = false } = {}): Field {
  const list = arr(union(allowed.map((type) => PART_SCHEMAS[type])));
  return {
    schema: orString ? union([str(), list]) : list,
    optional: false,
    // pi reads a message of the model's roles without content as empty (`missing`), and any block as it is.
    readAs: {
      schema: union([...(missing ? [nul()] : []), ...(orString ? [str()] : []), ANY_PARTS]),
      optional: missing,
      note: (name, value) => contentNote(name, value, allowed),
    },
    explain: (name, _error, rest, value) => {
      const index = rest[0];
      if (index === undefined || !Array.isArray(value))
        return at(name, `${name} must be ${orString ? "text or " : ""}a list of content parts.`);
      return explainPart(`${name}[${index}]`, value[Number(index)], allowed, rest.slice(1));
    },
  };
}

const USAGE_COUNTS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const;
/** Usage as older pi versions and OpenAI-compatible servers leave it: without a cost, or a total. */
const PARTIAL_USAGE = ["totalTokens", "cost"] as const;

const usage: Field = {
  schema: obj(
    { ...Object.fromEntries(USAGE_COUNTS.map((key) => [key, num()])), cost: map(unknown()) },
    { open: true },
  ),
  optional: false,
  readAs: {
    schema: obj(
      {
        ...Object.fromEntries(USAGE_COUNTS.map((key) => [key, key === "totalTokens" ? opt(num()) : num()])),
        cost: opt(map(unknown())),
      },
      { open: true },
    ),
    optional: false,
    note: (_name, value) => {
      const missing = PARTIAL_USAGE.filter((key) => !isObject(value) || value[key] === undefined);
      return `usage has no ${missing.join(" and no ")}: kept as it is (counted as 0 here)`;
    },
  },
  explain: (name, _error, rest) => {
    const key = rest[0];
    if (key === "cost") return at("usage.cost", "usage.cost must be an object.");
    if (key !== undefined) return at(`usage.${key}`, `usage.${key} must be a number.`);
    return at(
      name,
      "usage must be an object with input, output, cacheRead, cacheWrite, totalTokens and cost.",
    );
  },
};

/** Any time, before 1970 too: pi's types ask only for a number. */
const timestamp = number();

/** The fields of every role, in the order their errors are listed. Adding a role without fields fails to compile. */
const FIELDS: Record<AgentMessage["role"], Record<string, Field>> = {
  system: {
    timestamp,
    content: parts(["text", "image"], { orString: true, missing: true }),
    toolsAdded: {
      ...sentence("toolsAdded", "toolsAdded must be a list of tools."),
      schema: arr(unknown()),
      optional: true,
    },
    toolsRemoved: {
      ...sentence("toolsRemoved", "toolsRemoved must be a list of tool references."),
      schema: arr(unknown()),
      optional: true,
    },
  },
  user: { timestamp, content: parts(["text", "image"], { orString: true, missing: true }) },
  assistant: {
    timestamp,
    content: parts(["text", "thinking", "toolCall"], { missing: true }),
    api: text(),
    provider: text(),
    model: text(),
    stopReason: {
      ...choice(STOP_REASONS),
      readAs: {
        schema: str(),
        optional: false,
        note: (name, value) => `${name} ${JSON.stringify(value)} is not one pi knows: kept as it is`,
      },
    },
    usage,
    errorMessage: text({ optional: true }),
  },
  // Empty strings are pi's values too: pi-ai's openai-completions adapter records a tool call a server
  // sent without an id with the id "", and its result answers that id.
  toolResult: {
    timestamp,
    toolCallId: text(),
    toolName: text(),
    content: parts(["text", "image"], { missing: true }),
    isError: boolean(),
  },
  bashExecution: {
    timestamp,
    command: text(),
    output: text(),
    exitCode: {
      ...number({ optional: true, integer: true }),
      // Older pi sessions wrote null for an unknown code; pi's bashExecutionToText reads it as unknown.
      readAs: {
        schema: nullable(num()),
        optional: true,
        note: (name) =>
          `${name} is null, as older pi sessions wrote an unknown code: read as unknown, as pi reads it`,
      },
    },
    cancelled: boolean(),
    truncated: boolean(),
    fullOutputPath: text({ optional: true }),
    excludeFromContext: boolean({ optional: true }),
  },
  custom: {
    timestamp,
    customType: text(),
    content: parts(["text", "image"], { orString: true }),
    display: boolean(),
  },
  branchSummary: {
    timestamp,
    summary: text(),
    fromId: { ...sentence("fromId", "fromId must be text or null."), schema: nullable(str()) },
  },
  compactionSummary: {
    timestamp,
    summary: text(),
    tokensBefore: {
      ...number({ integer: true, min: 0 }),
      readAs: {
        schema: num(),
        optional: true,
        note: (name) => `${name} is missing: kept so, as pi keeps it`,
      },
    },
  },
  notification: {
    timestamp,
    text: text({ nonEmpty: true }),
    // Optional, as in the tutorial's `{ role: "notification", text, timestamp }`: info when absent.
    level: choice(NOTIFICATION_LEVELS, { optional: true }),
  },
  approval_request: {
    timestamp,
    action: text({ nonEmpty: true }),
    status: choice(APPROVAL_STATUSES),
    subject: text({ optional: true }),
    toolCallId: text({ optional: true }),
    toolName: text({ optional: true }),
    decidedAt: number({ optional: true, min: 0 }),
    reason: text({ optional: true }),
  },
  progress: {
    timestamp,
    text: text({ nonEmpty: true }),
    fraction: number({ optional: true, min: 0, max: 1 }),
  },
};

export const KNOWN_ROLES: readonly string[] = [...LLM_ROLES, ...CUSTOM_ROLES];

function compileFields(wide: boolean) {
  return compile(
    union(
      Object.entries(FIELDS).map(([role, fields]) =>
        obj(
          {
            role: lit(role),
            ...Object.fromEntries(
              Object.entries(fields).map(([name, field]) => {
                const { schema, optional } = (wide && field.readAs) || field;
                return [name, optional ? opt(schema) : schema];
              }),
            ),
          },
          { open: true },
        ),
      ),
    ),
  );
}

/** pi's types. */
const validator = compileFields(false);
/** What pi's code reads. */
const readValidator = compileFields(true);

/** The friendly errors of a value that failed the schema: one per field, in the role's field order. */
function explain(value: Record<string, unknown>, role: AgentMessage["role"]): FieldError[] {
  const fields = FIELDS[role];
  const order = Object.keys(fields);
  const byField = new Map<string, FieldError>();
  for (const error of validator.errors(value)) {
    const [name = "", ...rest] = error.path.split("/").slice(1);
    const field = fields[name];
    if (!field || byField.has(name)) continue;
    byField.set(name, field.explain(name, error, rest, value[name]));
  }
  return order.flatMap((name) => {
    const error = byField.get(name);
    return error ? [error] : [];
  });
}

/** The roles pi reads as empty when their content is missing (its `sessionEntryToContextMessages`). */
const EMPTY_WHEN_MISSING: Partial<Record<AgentMessage["role"], () => unknown>> = {
  system: () => "",
  user: () => [],
  assistant: () => [],
  toolResult: () => [],
};

/** One note per field whose value only pi's reading allows, in the role's field order. */
function readAsNotes(value: Record<string, unknown>, role: AgentMessage["role"]): FieldError[] {
  const names = new Set(validator.errors(value).map((error) => error.path.split("/")[1] ?? ""));
  return Object.entries(FIELDS[role]).flatMap(([name, field]) =>
    names.has(name) && field.readAs ? [at(name, field.readAs.note(name, value[name]))] : [],
  );
}

/**
 * Check a message. With `asPiReads` (what storage and session files hold), a message is read as pi's code
 * reads it: one of a role this version does not know is kept as it is, only required to name its role and
 * time (`convertToLlm` never sends it); one with a value pi's types do not allow but pi reads is kept, with
 * a note per such field (`readAs`), its missing content made empty as pi makes it (`repaired`). People
 * typing a message get the errors instead.
 */
export function validateMessage(value: unknown, { asPiReads = false } = {}): Validation {
  if (!isObject(value)) return { ok: false, errors: [at("", "A message must be a JSON object.")] };
  if (validator.check(value)) return { ok: true, message: value as AgentMessage };
  const role = value.role;
  if (asPiReads && typeof role === "string" && role !== "" && !KNOWN_ROLES.includes(role)) {
    return typeof value.timestamp === "number"
      ? { ok: true, message: value as unknown as AgentMessage }
      : { ok: false, errors: [at("timestamp", `The ${role} message needs a numeric timestamp.`)] };
  }
  if (typeof role !== "string" || !KNOWN_ROLES.includes(role)) {
    return {
      ok: false,
      errors: [
        at("role", `Unknown role ${JSON.stringify(role)}; expected one of ${KNOWN_ROLES.join(", ")}.`),
      ],
    };
  }
  const known = role as AgentMessage["role"];
  if (asPiReads && readValidator.check(value)) {
    const readAs = readAsNotes(value, known);
    const empty = EMPTY_WHEN_MISSING[known];
    if ((value as Record<string, unknown>).content == null && empty) {
      const repaired = readAs.find((note) => note.field === "content");
      return {
        ok: true,
        message: { ...value, content: empty() } as AgentMessage,
        readAs: readAs.filter((note) => note !== repaired),
        ...(repaired ? { repaired } : {}),
      };
    }
    return { ok: true, message: value as unknown as AgentMessage, readAs };
  }
  const errors = explain(value, known);
  // The schema and the explanations come from one table; a failure nobody explains is still a failure.
  return { ok: false, errors: errors.length > 0 ? errors : [at("", `The ${role} message is not valid.`)] };
}

/** "exitCode must be a whole number." — the errors of one validation, as one readable line. */
export function describeErrors(errors: readonly FieldError[]): string {
  return errors.map((error) => error.message).join(" ");
}
