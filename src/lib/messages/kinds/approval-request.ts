import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { DEFAULT_POLICIES } from "../policies.ts";
import type { ApprovalRequestMessage } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

export function approvalText(message: ApprovalRequestMessage): string {
  const subject = message.subject ? ` (${message.subject})` : "";
  const reason = message.reason ? `: ${message.reason}` : "";
  return `[Approval request] ${message.action}${subject}: ${message.status}${reason}`;
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
} as const satisfies MessageKind<ApprovalRequestMessage>;
