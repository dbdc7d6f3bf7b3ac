import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { compile, lit, obj, opt, type Validator } from "@earendil-works/pi-schema";
import { isObject } from "../../shared/is-object.ts";
import { at, type FieldError } from "./kinds/fields.ts";
import { isKnownRole, kindOfRole, messageKinds } from "./kinds/index.ts";
import type { AnyMessageKind } from "./kinds/kind.ts";

/**
 * Runtime validation of session facts that come from people or files: the injection dialog, imported
 * sessions and records read back from storage all pass through here, so each gets the same rules and
 * the same messages. Each message kind's fields (`kinds/<role>.ts`) drive both the JSON Schema (compiled once per kind by pi's
 * own schema package, whose check costs next to nothing on the valid path that storage reads take) and the
 * sentence shown next to each field when a value fails.
 *
 * The table holds pi's types, and for some fields a wider shape that pi's code reads without checking
 * (`readAs`): a message read from a file or storage (`asPiReads`) may have it, and is then kept as pi
 * keeps it, with a note per field: no content (read as empty, as pi reads it), usage without a cost or a
 * total, a stop reason or a content block pi's types do not have, a compaction without its size. What
 * stays refused is what the page could not show: values of another kind than pi's types name.
 */

export type { FieldError };

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

interface Compiled {
  /** pi's types. */
  strict: Validator<unknown>;
  /** What pi's code reads. */
  wide: Validator<unknown>;
}

/** Each kind's schema, compiled on first use (a kind registered while the page runs gets its own). */
const compiled = new WeakMap<AnyMessageKind, Compiled>();

function compileKind(kind: AnyMessageKind, wide: boolean): Validator<unknown> {
  return compile(
    obj(
      {
        role: lit(kind.role),
        ...Object.fromEntries(
          Object.entries(kind.fields).map(([name, field]) => {
            const { schema, optional } = (wide && field.readAs) || field;
            return [name, optional ? opt(schema) : schema];
          }),
        ),
      },
      { open: true },
    ),
  );
}

function validatorsOf(kind: AnyMessageKind): Compiled {
  let hit = compiled.get(kind);
  if (!hit) {
    hit = { strict: compileKind(kind, false), wide: compileKind(kind, true) };
    compiled.set(kind, hit);
  }
  return hit;
}

/** The friendly errors of a value that failed the schema: one per field, in the kind's field order. */
function explain(value: Record<string, unknown>, kind: AnyMessageKind): FieldError[] {
  const fields = kind.fields;
  const order = Object.keys(fields);
  const byField = new Map<string, FieldError>();
  for (const error of validatorsOf(kind).strict.errors(value)) {
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

/** One note per field whose value only pi's reading allows, in the role's field order. */
function readAsNotes(value: Record<string, unknown>, kind: AnyMessageKind): FieldError[] {
  const names = new Set(
    validatorsOf(kind)
      .strict.errors(value)
      .map((error) => error.path.split("/")[1] ?? ""),
  );
  return Object.entries(kind.fields).flatMap(([name, field]) =>
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
  const role = value.role;
  const known = isKnownRole(role) ? kindOfRole(role) : undefined;
  if (known && validatorsOf(known).strict.check(value)) return { ok: true, message: value as AgentMessage };
  if (asPiReads && typeof role === "string" && role !== "" && !known) {
    return typeof value.timestamp === "number"
      ? { ok: true, message: value as unknown as AgentMessage }
      : { ok: false, errors: [at("timestamp", `The ${role} message needs a numeric timestamp.`)] };
  }
  if (!known) {
    const roles = messageKinds().map((kind) => kind.role);
    return {
      ok: false,
      errors: [at("role", `Unknown role ${JSON.stringify(role)}; expected one of ${roles.join(", ")}.`)],
    };
  }
  if (asPiReads && validatorsOf(known).wide.check(value)) {
    const readAs = readAsNotes(value, known);
    // What pi reads for missing content is the kind's to say (its content field's `readAs.missing`).
    const empty = known.fields.content?.readAs?.missing;
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
  // The schema and the explanations come from one list of fields; a failure nobody explains is still a failure.
  return { ok: false, errors: errors.length > 0 ? errors : [at("", `The ${role} message is not valid.`)] };
}

/** "exitCode must be a whole number." — the errors of one validation, as one readable line. */
export function describeErrors(errors: readonly FieldError[]): string {
  return errors.map((error) => error.message).join(" ");
}
