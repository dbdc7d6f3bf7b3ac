import { APPROVAL_STATUSES, NOTIFICATION_LEVELS, type CustomRole } from "../messages/types.ts";

/**
 * The injection dialog's forms: one per message type, described as data so that the component only
 * renders fields. What people type becomes a message in form-message.ts; the JSON tab's side is json-tab.ts.
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
