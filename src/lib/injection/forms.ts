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
  errors: FieldError[],
  integer = false,
): number | undefined {
  const raw = text(values, name).trim();
  if (raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    errors.push({
      field: name,
      message: `${label} must be ${integer ? "a whole number" : "a number"}, not "${raw}".`,
    });
    return undefined;
  }
  return value;
}

function required(values: FormValues, name: string, label: string, errors: FieldError[]): string {
  const value = text(values, name);
  if (value.trim() === "") errors.push({ field: name, message: `${label} is required.` });
  return value;
}

/** Build the message a form describes, or say, field by field, what is wrong. */
export function buildFromForm(kind: InjectKind, values: FormValues, now = Date.now()): BuildResult {
  const errors: FieldError[] = [];
  let message: AgentMessage | undefined;
  switch (kind) {
    case "notification":
      message = createNotification(
        required(values, "text", "Text", errors),
        text(values, "level") as NotificationLevel,
        now,
      );
      break;
    case "approval_request": {
      const subject = text(values, "subject").trim();
      message = createApprovalRequest(
        {
          action: required(values, "action", "Action", errors),
          status: text(values, "status") as ApprovalStatus,
          ...(subject ? { subject } : {}),
        },
        now,
      );
      break;
    }
    case "progress":
      message = createProgress(
        required(values, "text", "Text", errors),
        optionalNumber(values, "fraction", "Fraction", errors),
        now,
      );
      break;
    case "bashExecution": {
      const path = text(values, "fullOutputPath").trim();
      message = createBashExecution(
        {
          command: required(values, "command", "Command", errors),
          output: text(values, "output"),
          exitCode: optionalNumber(values, "exitCode", "Exit code", errors, true),
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
          errors.push({
            field: "details",
            message: `Details is not valid JSON: ${(error as Error).message}`,
          });
        }
        // The message itself is one level: details may use the rest.
        if (nestsDeeperThan(details, MAX_NESTING_DEPTH - 1)) {
          details = undefined;
          errors.push({
            field: "details",
            message: `Details nest ${tooDeepMessage(MAX_NESTING_DEPTH - 1)}.`,
          });
        }
      }
      message = createCustomMessage(
        required(values, "customType", "Custom type", errors),
        required(values, "content", "Content", errors),
        flag(values, "display"),
        details,
        now,
      );
      break;
    }
    case "branchSummary": {
      const fromId = text(values, "fromId").trim();
      message = createBranchSummary(required(values, "summary", "Summary", errors), fromId || null, now);
      break;
    }
    case "compactionSummary": {
      const tokens = optionalNumber(values, "tokensBefore", "Tokens before compaction", errors, true);
      if (tokens === undefined && !errors.some((error) => error.field === "tokensBefore")) {
        errors.push({ field: "tokensBefore", message: "Tokens before compaction is required." });
      }
      message = createCompactionSummary(required(values, "summary", "Summary", errors), tokens ?? 0, now);
      break;
    }
    case "user":
      message = createUserMessage(required(values, "text", "Text", errors), now);
      break;
    case "assistant":
      message = createInjectedAssistantMessage(required(values, "text", "Text", errors), now);
      break;
  }
  if (errors.length > 0 || !message) return { ok: false, errors };
  return validateMessage(message);
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
