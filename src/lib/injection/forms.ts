import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  createApprovalRequest,
  createBashExecution,
  createBranchSummary,
  createCompactionSummary,
  createCustomMessage,
  createInjectedAssistantMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "../messages/factories.ts";
import {
  APPROVAL_STATUSES,
  NOTIFICATION_LEVELS,
  type ApprovalStatus,
  type CustomRole,
  type NotificationLevel,
} from "../messages/types.ts";
import { MAX_NESTING_DEPTH, nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { validateMessage, type FieldError, type Validation } from "../messages/validate.ts";
import { isObject } from "../../shared/is-object.ts";

/**
 * The injection dialog's forms: one per message type, described as data so that the component only
 * renders fields, and the parsing of what people type (numbers, JSON, empty optionals) is testable.
 */
export type InjectKind = CustomRole | "user" | "assistant";

export interface FieldSpec {
  name: string;
  label: string;
  input: "text" | "textarea" | "number" | "checkbox" | "select" | "json";
  options?: readonly string[];
  hint?: string;
}

export type FormValues = Record<string, string | boolean>;

export const KIND_LABELS: Record<InjectKind, string> = {
  notification: "Notification",
  approval_request: "Approval request",
  progress: "Progress",
  bashExecution: "Bash execution",
  custom: "Custom (extension message)",
  branchSummary: "Branch summary",
  compactionSummary: "Compaction summary",
  user: "User message",
  assistant: "Assistant message",
};

export const INJECT_KINDS = Object.keys(KIND_LABELS) as InjectKind[];

export const FORMS: Record<InjectKind, readonly FieldSpec[]> = {
  notification: [
    { name: "text", label: "Text", input: "textarea" },
    { name: "level", label: "Level", input: "select", options: NOTIFICATION_LEVELS },
  ],
  approval_request: [
    {
      name: "action",
      label: "Action",
      input: "text",
      hint: "What needs a decision, e.g. Deploy to production",
    },
    { name: "subject", label: "Refers to", input: "text", hint: "Optional: a ticket, a file, a plan step" },
    { name: "status", label: "Status", input: "select", options: APPROVAL_STATUSES },
  ],
  progress: [
    { name: "text", label: "Text", input: "text" },
    { name: "fraction", label: "Fraction done (0 to 1)", input: "number", hint: "Optional" },
  ],
  bashExecution: [
    { name: "command", label: "Command", input: "text" },
    { name: "output", label: "Output", input: "textarea" },
    { name: "exitCode", label: "Exit code", input: "number", hint: "Empty when unknown" },
    { name: "cancelled", label: "Cancelled", input: "checkbox" },
    { name: "truncated", label: "Truncated", input: "checkbox" },
    {
      name: "fullOutputPath",
      label: "Full output path",
      input: "text",
      hint: "Optional; named to the model when truncated",
    },
    { name: "excludeFromContext", label: "Exclude from context (!!)", input: "checkbox" },
  ],
  custom: [
    { name: "customType", label: "Custom type", input: "text", hint: "e.g. calendar-context" },
    { name: "content", label: "Content", input: "textarea" },
    { name: "display", label: "Display in the chat", input: "checkbox" },
    {
      name: "details",
      label: "Details (JSON)",
      input: "json",
      hint: "Optional structured data for the UI; never sent",
    },
  ],
  branchSummary: [
    { name: "summary", label: "Summary", input: "textarea" },
    { name: "fromId", label: "From entry id", input: "text", hint: "Optional" },
  ],
  compactionSummary: [
    { name: "summary", label: "Summary", input: "textarea" },
    { name: "tokensBefore", label: "Tokens before compaction", input: "number" },
  ],
  user: [{ name: "text", label: "Text", input: "textarea" }],
  assistant: [{ name: "text", label: "Text", input: "textarea" }],
};

export function initialValues(kind: InjectKind): FormValues {
  const values: FormValues = {};
  for (const field of FORMS[kind]) {
    values[field.name] =
      field.input === "checkbox" ? false : field.input === "select" ? (field.options?.[0] ?? "") : "";
  }
  if (kind === "custom") values.display = true;
  if (kind === "bashExecution") values.exitCode = "0";
  if (kind === "compactionSummary") values.tokensBefore = "0";
  return values;
}

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

/**
 * The message a form describes, complete or not, without a timestamp: what the JSON tab shows of the form.
 * Text typed into a number or JSON field that is not one stays as typed; the errors say what is wrong.
 */
export function formMessage(
  kind: InjectKind,
  values: FormValues,
): { message: Record<string, unknown>; errors: FieldError[] } {
  const problems: Problems = { errors: [], typed: {} };
  // The timestamp is given when the message is built to be injected.
  const now = 0;
  let message: AgentMessage;
  switch (kind) {
    case "notification":
      message = createNotification(
        required(values, "text", "Text", problems),
        text(values, "level") as NotificationLevel,
        now,
      );
      break;
    case "approval_request": {
      const subject = text(values, "subject").trim();
      message = createApprovalRequest(
        {
          action: required(values, "action", "Action", problems),
          status: text(values, "status") as ApprovalStatus,
          ...(subject ? { subject } : {}),
        },
        now,
      );
      break;
    }
    case "progress":
      message = createProgress(
        required(values, "text", "Text", problems),
        optionalNumber(values, "fraction", "Fraction", problems),
        now,
      );
      break;
    case "bashExecution": {
      const path = text(values, "fullOutputPath").trim();
      message = createBashExecution(
        {
          command: required(values, "command", "Command", problems),
          output: text(values, "output"),
          exitCode: optionalNumber(values, "exitCode", "Exit code", problems, true),
          cancelled: flag(values, "cancelled"),
          truncated: flag(values, "truncated"),
          ...(path ? { fullOutputPath: path } : {}),
          excludeFromContext: flag(values, "excludeFromContext"),
        },
        now,
      );
      break;
    }
    case "custom": {
      let details: unknown;
      const rawDetails = text(values, "details").trim();
      if (rawDetails !== "") {
        try {
          details = JSON.parse(rawDetails);
        } catch (error) {
          problems.errors.push({
            field: "details",
            message: `Details is not valid JSON: ${(error as Error).message}`,
          });
          problems.typed.details = rawDetails;
        }
        // The message itself is one level: details may use the rest.
        if (nestsDeeperThan(details, MAX_NESTING_DEPTH - 1)) {
          details = undefined;
          problems.errors.push({
            field: "details",
            message: `Details nest ${tooDeepMessage(MAX_NESTING_DEPTH - 1)}.`,
          });
          problems.typed.details = rawDetails;
        }
      }
      message = createCustomMessage(
        required(values, "customType", "Custom type", problems),
        required(values, "content", "Content", problems),
        flag(values, "display"),
        details,
        now,
      );
      break;
    }
    case "branchSummary": {
      const fromId = text(values, "fromId").trim();
      message = createBranchSummary(required(values, "summary", "Summary", problems), fromId || null, now);
      break;
    }
    case "compactionSummary": {
      const tokens = optionalNumber(values, "tokensBefore", "Tokens before compaction", problems, true);
      if (tokens === undefined && !problems.errors.some((error) => error.field === "tokensBefore")) {
        problems.errors.push({ field: "tokensBefore", message: "Tokens before compaction is required." });
      }
      message = createCompactionSummary(required(values, "summary", "Summary", problems), tokens ?? 0, now);
      break;
    }
    case "user":
      message = createUserMessage(required(values, "text", "Text", problems), now);
      break;
    case "assistant":
      message = createInjectedAssistantMessage(required(values, "text", "Text", problems), now);
      break;
  }
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

/** The JSON tab: a whole message pasted by hand, checked by the same validator as everything else. */
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
    default:
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
