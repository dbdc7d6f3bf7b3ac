import type { ApprovalRequestMessage, ApprovalStatus } from "../messages/types.ts";

export type ApprovalDecision = Exclude<ApprovalStatus, "pending">;

export { rejectionText } from "../messages/kinds/approval-request.ts";

/** The decided version of a request: a new object, as facts are never changed in place. */
export function decided(
  fact: ApprovalRequestMessage,
  status: ApprovalDecision,
  reason?: string,
  now = Date.now(),
): ApprovalRequestMessage {
  return { ...fact, status, decidedAt: now, ...(reason ? { reason } : {}) };
}
