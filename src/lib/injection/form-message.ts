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
import type { ApprovalStatus, NotificationLevel } from "../messages/types.ts";
import { MAX_NESTING_DEPTH, nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { validateMessage, type FieldError, type Validation } from "../messages/validate.ts";
import type { FormValues, InjectKind } from "./forms.ts";

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
