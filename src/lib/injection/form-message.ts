import type { FormReader } from "../messages/kinds/kind.ts";
import { MAX_NESTING_DEPTH, nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { validateMessage, type FieldError, type Validation } from "../messages/validate.ts";
import { formOf, type FormValues, type InjectKind } from "./forms.ts";

/**
 * The message a form describes, from what people typed: numbers and JSON parsed, empty optionals left
 * out, and what is wrong said field by field.
 */

export type BuildResult = Validation;

function text(values: FormValues, name: string): string {
  const value = values[name];
  return typeof value === "string" ? value : "";
}

function flag(values: FormValues, name: string): boolean {
  return values[name] === true;
}

/** An optional number field: empty is undefined; anything else must parse, or it is an error for that field. */
function optionalNumber(
  values: FormValues,
  name: string,
  label: string,
  problems: Problems,
  integer = false,
): number | undefined {
  const raw = text(values, name).trim();
  if (raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    problems.errors.push({
      field: name,
      message: `${label} must be ${integer ? "a whole number" : "a number"}, not "${raw}".`,
    });
    problems.typed[name] = raw;
    return undefined;
  }
  return value;
}

/** What is wrong with a form, and what was typed into fields whose text is not a value of their type. */
interface Problems {
  errors: FieldError[];
  /** Shown as typed in the JSON tab, so that nothing typed disappears there. */
  typed: Record<string, string>;
}

function required(values: FormValues, name: string, label: string, problems: Problems): string {
  const value = text(values, name);
  if (value.trim() === "") problems.errors.push({ field: name, message: `${label} is required.` });
  return value;
}

/** What a kind's form reads of the values, noting each problem as an error of its field. */
function reader(values: FormValues, problems: Problems): FormReader {
  return {
    text: (name) => text(values, name),
    flag: (name) => flag(values, name),
    required: (name, label) => required(values, name, label, problems),
    optionalNumber: (name, label, integer = false) => optionalNumber(values, name, label, problems, integer),
    requiredNumber: (name, label, integer = false) => {
      const value = optionalNumber(values, name, label, problems, integer);
      if (value === undefined && !problems.errors.some((error) => error.field === name))
        problems.errors.push({ field: name, message: `${label} is required.` });
      return value ?? 0;
    },
    json: (name, label) => {
      const raw = text(values, name).trim();
      if (raw === "") return undefined;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (error) {
        problems.errors.push({
          field: name,
          message: `${label} is not valid JSON: ${(error as Error).message}`,
        });
        problems.typed[name] = raw;
        return undefined;
      }
      // The message itself is one level: the field may use the rest.
      if (nestsDeeperThan(value, MAX_NESTING_DEPTH - 1)) {
        problems.errors.push({
          field: name,
          message: `${label} nest ${tooDeepMessage(MAX_NESTING_DEPTH - 1)}.`,
        });
        problems.typed[name] = raw;
        return undefined;
      }
      return value;
    },
  };
}

/**
 * The message a form describes, complete or not, without a timestamp: what the JSON tab shows of the form.
 * Text typed into a number or JSON field that is not one stays as typed; the errors say what is wrong.
 */
export function formMessage(
  kind: InjectKind,
  values: FormValues,
): { message: Record<string, unknown>; errors: FieldError[] } {
  const problems: Problems = { errors: [], typed: {} };
  const message = formOf(kind).build(reader(values, problems));
  const { timestamp: _timestamp, ...fields } = message as unknown as Record<string, unknown>;
  // A field the factory left undefined is not in the message (as JSON would say).
  for (const [key, value] of Object.entries(fields)) if (value === undefined) delete fields[key];
  return { message: { ...fields, ...problems.typed }, errors: problems.errors };
}

/**
 * Build the message a form describes, or say, field by field, what is wrong. `kept` are fields of a
 * message read from the JSON tab that the form does not show: they stay in the message, and the form's
 * own fields win over them.
 */
export function buildFromForm(
  kind: InjectKind,
  values: FormValues,
  now = Date.now(),
  kept: Readonly<Record<string, unknown>> = {},
): BuildResult {
  const { message, errors } = formMessage(kind, values);
  if (errors.length > 0) return { ok: false, errors };
  return validateMessage({ ...kept, ...message, timestamp: "timestamp" in kept ? kept.timestamp : now });
}
