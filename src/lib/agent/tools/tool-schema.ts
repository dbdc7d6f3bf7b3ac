import validateMetaSchema, { type MetaValidationError } from "virtual:json-schema-meta-validator";
import { isObject } from "../../../shared/is-object.ts";
import { nestsDeeperThan } from "../../messages/nesting.ts";
import { TOOL_LIMITS } from "./tool-limits.ts";

/**
 * A tool's parameters as a person writes them: JSON text that must be a JSON Schema (checked by ajv
 * against JSON Schema draft-07's meta-schema, compiled when the page is built: see
 * scripts/json-schema-validator.mjs) describing an object, as every provider requires of tool parameters.
 * A schema that is not one is explained, each problem with the place it is at, and not accepted.
 */

export type SchemaCheck = { ok: true; schema: Record<string, unknown> } | { ok: false; problems: string[] };

const JSON_SCHEMA_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

export function checkParametersSchema(text: string): SchemaCheck {
  if (text.length > TOOL_LIMITS.schemaBytes)
    return {
      ok: false,
      problems: [
        `The schema is ${text.length.toLocaleString("en-US")} bytes; at most ${TOOL_LIMITS.schemaBytes.toLocaleString("en-US")} are accepted (VITE_TOOL_SCHEMA_MAX_BYTES).`,
      ],
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`The schema is not JSON: ${(error as Error).message}`] };
  }
  return checkSchemaValue(value);
}

export function checkSchemaValue(value: unknown): SchemaCheck {
  if (!isObject(value))
    return {
      ok: false,
      problems: ['The parameters must be a JSON Schema object, such as {"type": "object"}.'],
    };
  if (nestsDeeperThan(value, TOOL_LIMITS.schemaDepth))
    return { ok: false, problems: [`The schema nests more than ${TOOL_LIMITS.schemaDepth} levels.`] };
  const problems: string[] = [];
  if (!validateMetaSchema(value)) problems.push(...describeErrors(value, validateMetaSchema.errors ?? []));
  if (value.type !== "object")
    problems.push(
      `The parameters must describe an object ("type": "object" at the top), as providers require; this one has ${value.type === undefined ? "no type" : `"type": ${JSON.stringify(value.type)}`}.`,
    );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, schema: value };
}

/**
 * ajv's errors, said for a person: one line per place, the deepest reason there. ajv reports a wrong
 * `type` three times (not one of the names, not a list, matches neither alternative); that is one problem,
 * said once with the names JSON Schema has.
 */
function describeErrors(schema: Record<string, unknown>, errors: readonly MetaValidationError[]): string[] {
  const byPlace = new Map<string, MetaValidationError[]>();
  for (const error of errors) {
    const list = byPlace.get(error.instancePath) ?? [];
    list.push(error);
    byPlace.set(error.instancePath, list);
  }
  const lines: string[] = [];
  for (const [path, list] of byPlace) {
    const where = placeOf(path);
    const value = valueAt(schema, path);
    if (
      path.endsWith("/type") &&
      list.some((error) => error.keyword === "enum" || error.keyword === "anyOf")
    ) {
      lines.push(
        `${where}: ${JSON.stringify(value)} is not a JSON Schema type; use one of ${JSON_SCHEMA_TYPES.join(", ")} (or a list of them).`,
      );
      continue;
    }
    // The alternatives' own errors say what is wrong; "must match a schema in anyOf" adds nothing.
    const reasons = list.filter((error) => error.keyword !== "anyOf" && error.keyword !== "oneOf");
    for (const error of reasons.length > 0 ? reasons : list) lines.push(`${where}: ${sayError(error)}`);
  }
  return lines;
}

function sayError(error: MetaValidationError): string {
  const params = error.params;
  if (error.keyword === "enum" && Array.isArray(params.allowedValues))
    return `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
  if (error.keyword === "type" && typeof params.type === "string") return `must be of type ${params.type}`;
  return error.message ?? `fails "${error.keyword}"`;
}

/** `/properties/id/type` → `properties.id.type` ("the schema" at the top). */
function placeOf(pointer: string): string {
  if (pointer === "") return "The schema";
  return `"${pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".")}"`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const segment of pointer.split("/").slice(1)) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
