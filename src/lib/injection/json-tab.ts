import { isObject } from "../../shared/is-object.ts";
import { nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { validateMessage } from "../messages/validate.ts";
import { formMessage, type BuildResult } from "./form-message.ts";
import {
  FORMS,
  initialValues,
  INJECT_KINDS,
  type FieldSpec,
  type FormValues,
  type InjectKind,
} from "./forms.ts";

/**
 * The JSON tab: a whole message pasted by hand, the form's message shown as JSON, and a JSON message read
 * back into the form when the form can show it exactly.
 */

/** A whole message pasted by hand, checked by the same validator as everything else. */
export function buildFromJson(source: string): BuildResult {
  if (source.trim() === "")
    return { ok: false, errors: [{ field: "", message: "Paste a message as JSON." }] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    return { ok: false, errors: [{ field: "", message: `Not valid JSON: ${(error as Error).message}` }] };
  }
  if (nestsDeeperThan(parsed)) {
    return { ok: false, errors: [{ field: "", message: `The message nests ${tooDeepMessage()}.` }] };
  }
  if (isObject(parsed) && !("timestamp" in parsed)) {
    parsed = { ...parsed, timestamp: Date.now() };
  }
  return validateMessage(parsed);
}

/** The form's message as the JSON tab shows it: the fields the form does not show first, as they were read. */
export function jsonFromForm(
  kind: InjectKind,
  values: FormValues,
  kept: Readonly<Record<string, unknown>> = {},
): string {
  return JSON.stringify({ ...kept, ...formMessage(kind, values).message }, null, 2);
}

export type JsonInForm =
  | {
      ok: true;
      kind: InjectKind;
      values: FormValues;
      /** Fields of the message the form does not show: kept as they are. */
      kept: Record<string, unknown>;
    }
  | {
      ok: false;
      /** The type the JSON names, when it names one of the form's. */
      kind?: InjectKind;
      /** Why the form cannot show this JSON, as a sentence. */
      reason: string;
    };

/**
 * The form that shows a JSON message exactly: its type, the form's values, and the fields the form has
 * no place for (kept beside it). When the form would change any field it shows (a content with an image,
 * a number written as text, a level the select does not offer), it cannot show the message, and says why.
 */
export function formFromJson(source: string): JsonInForm {
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    return { ok: false, reason: "it is not valid JSON yet" };
  }
  if (!isObject(parsed)) return { ok: false, reason: "it is not a JSON object" };
  if (nestsDeeperThan(parsed)) return { ok: false, reason: `it nests ${tooDeepMessage()}` };
  const role = parsed.role;
  const kind = INJECT_KINDS.find((candidate) => candidate === role);
  if (!kind) return { ok: false, reason: `its role ${JSON.stringify(role)} is none of the types` };

  const values = initialValues(kind);
  for (const field of FORMS[kind]) {
    const key = messageKey(kind, field.name);
    if (key in parsed) values[field.name] = formValue(kind, field, parsed[key]);
  }
  const offOptions = FORMS[kind].filter(
    (field) => field.input === "select" && !(field.options ?? []).includes(String(values[field.name])),
  );
  const shown = formMessage(kind, values).message;
  const changed = Object.keys(shown).filter((key) => key in parsed && !sameJson(shown[key], parsed[key]));
  const lost = [...new Set([...offOptions.map((field) => messageKey(kind, field.name)), ...changed])];
  if (lost.length > 0)
    return {
      ok: false,
      kind,
      reason: `it would change ${lost.map((key) => `"${key}"`).join(", ")}`,
    };
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) if (!(key in shown)) kept[key] = value;
  return { ok: true, kind, values, kept };
}

/** The message field a form field edits: the same name, except the text of a user or assistant message. */
function messageKey(kind: InjectKind, field: string): string {
  return (kind === "user" || kind === "assistant") && field === "text" ? "content" : field;
}

function formValue(kind: InjectKind, field: FieldSpec, value: unknown): string | boolean {
  if (messageKey(kind, field.name) === "content" && kind !== "custom") {
    // The form writes one text part; anything else will not come back the same (and the check says so).
    const [first] = Array.isArray(value) ? value : [];
    return isObject(first) && typeof first.text === "string" ? first.text : "";
  }
  switch (field.input) {
    case "checkbox":
      return value === true;
    case "json":
      return value === undefined ? "" : JSON.stringify(value, null, 2);
    case "text":
    case "textarea":
    case "number":
    case "select":
      if (typeof value === "string") return value;
      return value === undefined || value === null ? "" : JSON.stringify(value);
  }
}

/** Equal as JSON, whatever the order of keys. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}
