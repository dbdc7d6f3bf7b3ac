import type { ApprovalRequestMessage, ApprovalStatus } from "../messages/types.ts";

export type ApprovalDecision = Exclude<ApprovalStatus, "pending">;

/** The text the model reads in the tool result when a person rejects a gated call. */
export function rejectionText(toolName: string, reason?: string): string {
  const because = reason?.trim().replace(/[.!?]+$/, "");
  return `The user rejected the call to ${toolName}${because ? `: ${because}.` : "."} The tool did not run.`;
}

/** The decided version of a request: a new object, as facts are never changed in place. */
export function decided(
  fact: ApprovalRequestMessage,
  status: ApprovalDecision,
  reason?: string,
  now = Date.now(),
): ApprovalRequestMessage {
  return { ...fact, status, decidedAt: now, ...(reason ? { reason } : {}) };
}
