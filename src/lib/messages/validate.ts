import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  arr,
  bool,
  compile,
  int,
  lit,
  map,
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
 */

export interface FieldError {
  /** Dotted path of the offending field ("exitCode", "content[1].text"); "" for the message as a whole. */
  field: string;
  message: string;
}

export type Validation = { ok: true; message: AgentMessage } | { ok: false; errors: FieldError[] };

type PartType = "text" | "thinking" | "image" | "toolCall";

/** One field of a message: its schema, and the sentence that explains a failure at (or under) it. */
interface Field {
  schema: Schema;
  optional: boolean;
  explain: (name: string, error: ValidationError, rest: string[], value: unknown) => FieldError;
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

function parts(allowed: readonly PartType[], { orString = false } = {}): Field {
  const list = arr(union(allowed.map((type) => PART_SCHEMAS[type])));
  return {
    schema: orString ? union([str(), list]) : list,
    optional: false,
    explain: (name, _error, rest, value) => {
      const index = rest[0];
      if (index === undefined || !Array.isArray(value))
        return at(name, `${name} must be ${orString ? "text or " : ""}a list of content parts.`);
      return explainPart(`${name}[${index}]`, value[Number(index)], allowed, rest.slice(1));
    },
  };
}

const USAGE_COUNTS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const;

const usage: Field = {
  schema: obj(
    { ...Object.fromEntries(USAGE_COUNTS.map((key) => [key, num()])), cost: map(unknown()) },
    { open: true },
  ),
  optional: false,
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

const timestamp = number({ min: 0 });

/** The fields of every role, in the order their errors are listed. Adding a role without fields fails to compile. */
const FIELDS: Record<AgentMessage["role"], Record<string, Field>> = {
  system: {
    timestamp,
    content: parts(["text", "image"], { orString: true }),
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
  user: { timestamp, content: parts(["text", "image"], { orString: true }) },
  assistant: {
    timestamp,
    content: parts(["text", "thinking", "toolCall"]),
    api: text(),
    provider: text(),
    model: text(),
    stopReason: choice(STOP_REASONS),
    usage,
    errorMessage: text({ optional: true }),
  },
  toolResult: {
    timestamp,
    toolCallId: text({ nonEmpty: true }),
    toolName: text({ nonEmpty: true }),
    content: parts(["text", "image"]),
    isError: boolean(),
  },
  bashExecution: {
    timestamp,
    command: text({ nonEmpty: true }),
    output: text(),
    exitCode: number({ optional: true, integer: true }),
    cancelled: boolean(),
    truncated: boolean(),
    fullOutputPath: text({ optional: true }),
    excludeFromContext: boolean({ optional: true }),
  },
  custom: {
    timestamp,
    customType: text({ nonEmpty: true }),
    content: parts(["text", "image"], { orString: true }),
    display: boolean(),
  },
  branchSummary: {
    timestamp,
    summary: text({ nonEmpty: true }),
    fromId: { ...sentence("fromId", "fromId must be text or null."), schema: nullable(str()) },
  },
  compactionSummary: {
    timestamp,
    summary: text({ nonEmpty: true }),
    tokensBefore: number({ integer: true, min: 0 }),
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

const validator = compile(
  union(
    Object.entries(FIELDS).map(([role, fields]) =>
      obj(
        {
          role: lit(role),
          ...Object.fromEntries(
            Object.entries(fields).map(([name, field]) => [
              name,
              field.optional ? opt(field.schema) : field.schema,
            ]),
          ),
        },
        { open: true },
      ),
    ),
  ),
);

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

/**
 * Check a message. With `keepUnknownRoles` (what storage and session files hold), a message of a role this
 * version does not know is kept as it is, only required to name its role and time: `convertToLlm` never
 * sends it. People typing a message get the error instead.
 */
export function validateMessage(value: unknown, { keepUnknownRoles = false } = {}): Validation {
  if (!isObject(value)) return { ok: false, errors: [at("", "A message must be a JSON object.")] };
  if (validator.check(value)) return { ok: true, message: value as AgentMessage };
  const role = value.role;
  if (keepUnknownRoles && typeof role === "string" && role !== "" && !KNOWN_ROLES.includes(role)) {
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
  const errors = explain(value, role as AgentMessage["role"]);
  // The schema and the explanations come from one table; a failure nobody explains is still a failure.
  return { ok: false, errors: errors.length > 0 ? errors : [at("", `The ${role} message is not valid.`)] };
}

/** "exitCode must be a whole number." — the errors of one validation, as one readable line. */
export function describeErrors(errors: readonly FieldError[]): string {
  return errors.map((error) => error.message).join(" ");
}
