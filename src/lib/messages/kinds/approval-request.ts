import { createApprovalRequest } from "../factories.ts";
import { choice, number, text, timestamp } from "./fields.ts";
import { APPROVAL_STATUSES } from "../types.ts";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { DEFAULT_POLICIES } from "../policies.ts";
import type { ApprovalRequestMessage, ApprovalStatus } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

export function approvalText(message: ApprovalRequestMessage): string {
  const subject = message.subject ? ` (${message.subject})` : "";
  const reason = message.reason ? `: ${message.reason}` : "";
  return `[Approval request] ${message.action}${subject}: ${message.status}${reason}`;
}

/** The text the model reads in the tool result when a person rejects a gated call. */
export function rejectionText(toolName: string, reason?: string): string {
  const because = reason?.trim().replace(/[.!?]+$/, "");
  return `The user rejected the call to ${toolName}${because ? `: ${because}.` : "."} The tool did not run.`;
}

const AS_TEXT: ModelFate<ApprovalRequestMessage> = {
  fate: "converted",
  build: (message) => userText(approvalText(message), message.timestamp),
  key: "userText",
  byPolicy: true,
};

/** A human decision kept as an audit trail; the model reads it only when the session's policy says so. */
export const approvalRequestKind = {
  role: "approval_request",
  label: "Approval request",
  convert: (_message, policies) => (policies.approval_request === "hidden" ? { fate: "hidden" } : AS_TEXT),
  policy: { default: DEFAULT_POLICIES.approval_request },
  badge: (message) => message.role,
  preview: (message) =>
    `${message.action} — ${message.status}${message.subject ? ` (${message.subject})` : ""}`,
  copyText: (message) => [message.action, message.subject].filter(Boolean).join("\n"),
  tokens: (message) => estimateTextTokens(message.action + (message.subject ?? "") + (message.reason ?? "")),
  title: (message) => message.action,
  anatomy: { label: "approval requests (by policy)", lhar: "system_injections" },
  fields: {
    timestamp,
    action: text({ nonEmpty: true }),
    status: choice(APPROVAL_STATUSES),
    subject: text({ optional: true }),
    toolCallId: text({ optional: true }),
    toolName: text({ optional: true }),
    decidedAt: number({ optional: true, min: 0 }),
    reason: text({ optional: true }),
  },
  editable: null,
  piEntry: null,
  view: { load: () => import("./views/ApprovalCard.svelte") },
  form: {
    fields: [
      {
        name: "action",
        label: "Action",
        input: "text",
        hint: "What needs a decision, e.g. Deploy to production",
      },
      { name: "subject", label: "Refers to", input: "text", hint: "Optional: a ticket, a file, a plan step" },
      { name: "status", label: "Status", input: "select", options: APPROVAL_STATUSES },
    ],
    initial: {},
    build: (form) => {
      const subject = form.text("subject").trim();
      return createApprovalRequest(
        {
          action: form.required("action", "Action"),
          status: form.text("status") as ApprovalStatus,
          ...(subject ? { subject } : {}),
        },
        0,
      );
    },
  },
} as const satisfies MessageKind<ApprovalRequestMessage>;
