import {
  arr,
  bool,
  int,
  lit,
  map,
  nul,
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
import { isObject } from "../../../shared/is-object.ts";

/**
 * The pieces a message kind's fields are described with (`MessageKind.fields`): one per field, its schema
 * (compiled by pi's own schema package in `../validate.ts`) and the sentence shown next to the field when
 * a value fails. Some fields also have a wider shape pi's code reads without checking (`readAs`).
 */

export interface FieldError {
  /** Dotted path of the offending field ("exitCode", "content[1].text"); "" for the message as a whole. */
  field: string;
  message: string;
}

type PartType = "text" | "thinking" | "image" | "toolCall";

/** One field of a message: its schema, and the sentence that explains a failure at (or under) it. */
export interface Field {
  schema: Schema;
  optional: boolean;
  explain: (name: string, error: ValidationError, rest: string[], value: unknown) => FieldError;
  /** A wider shape pi's code reads, and what is said of a value that has it. */
  readAs?: {
    schema: Schema;
    optional: boolean;
    note: (name: string, value: unknown) => string;
    /** What pi reads when the field is missing (the model's roles' content: empty), if it reads one. */
    missing?: () => unknown;
  };
}

export const at = (field: string, message: string): FieldError => ({ field, message });

export function text({ optional = false, nonEmpty = false } = {}): Field {
  return {
    schema: str(nonEmpty ? { pattern: "\\S" } : {}),
    optional,
    explain: (name, error) =>
      error.keyword === "pattern"
        ? at(name, `${name} must not be empty.`)
        : at(name, `${name} must be text${optional ? " when given" : ""}.`),
  };
}

export function boolean({ optional = false } = {}): Field {
  return { schema: bool(), optional, explain: (name) => at(name, `${name} must be true or false.`) };
}

export function number({
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

export function choice(options: readonly string[], { optional = false } = {}): Field {
  return {
    schema: oneOf(options),
    optional,
    explain: (name) => at(name, `${name} must be one of ${options.join(", ")}.`),
  };
}

export function sentence(name: string, message: string): Field {
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

/**
 * A content list of these part types (or text, `orString`). `missing` is what pi reads when a message of
 * the role has no content at all (its `sessionEntryToContextMessages` makes the model's roles' content
 * empty): such a message is kept, its content read as that.
 */
export function parts(
  allowed: readonly PartType[],
  { orString = false, missing }: { orString?: boolean; missing?: () => unknown } = {},
): Field {
  const list = arr(union(allowed.map((type) => PART_SCHEMAS[type])));
  return {
    schema: orString ? union([str(), list]) : list,
    optional: false,
    // pi reads a message of the model's roles without content as empty (`missing`), and any block as it is.
    readAs: {
      schema: union([...(missing ? [nul()] : []), ...(orString ? [str()] : []), ANY_PARTS]),
      optional: missing !== undefined,
      note: (name, value) => contentNote(name, value, allowed),
      ...(missing ? { missing } : {}),
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

export const usage: Field = {
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
export const timestamp = number();
