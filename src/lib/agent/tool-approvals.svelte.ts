import type { BeforeToolCallContext, BeforeToolCallResult } from "@earendil-works/pi-agent-core";
import { createApprovalRequest } from "../messages/factories.ts";
import type { ApprovalRequestMessage } from "../messages/types.ts";
import { decided, rejectionText, type ApprovalDecision } from "./approvals.ts";

export interface Decision {
  status: ApprovalDecision;
  reason?: string;
}

/** What the approval gate needs from the session it guards. */
export interface ApprovalHost {
  requiresApproval(toolName: string): boolean;
  /** Make the pending request a fact of the running turn (the next request is built from the facts). */
  record(request: ApprovalRequestMessage): void;
  /** Replace the request with its decided version, wherever it is. */
  settle(request: ApprovalRequestMessage, outcome: ApprovalRequestMessage): void;
}

/**
 * The tutorial's approval pattern as the Agent's `beforeToolCall`: a gated call records a pending
 * approval request and waits for a person; approving lets it run, rejecting blocks it with a reason the
 * model reads in the tool result, and stopping the run rejects it.
 */
export class ToolApprovals {
  readonly #host: ApprovalHost;
  /** The calls waiting for a person, by tool call id: replaced, never changed in place, on each change. */
  #waiting = $state.raw<ReadonlyMap<string, (decision: Decision) => void>>(new Map());

  constructor(host: ApprovalHost) {
    this.#host = host;
  }

  /** A gated tool call with this id is waiting for a decision right now. */
  isWaiting(toolCallId: string | undefined): boolean {
    return toolCallId !== undefined && this.#waiting.has(toolCallId);
  }

  /** Hand a decision to the call waiting on it; false when no call waits. */
  resolve(toolCallId: string | undefined, decision: Decision): boolean {
    const waiter = toolCallId === undefined ? undefined : this.#waiting.get(toolCallId);
    waiter?.(decision);
    return waiter !== undefined;
  }

  readonly gate = async (
    context: BeforeToolCallContext,
    signal?: AbortSignal,
  ): Promise<BeforeToolCallResult | undefined> => {
    const { toolCall } = context;
    if (!this.#host.requiresApproval(toolCall.name)) return undefined;
    const request = createApprovalRequest({
      action: `Run ${toolCall.name}`,
      subject: JSON.stringify(context.args),
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      toolArgs: context.args,
    });
    this.#host.record(request);

    const decision = await new Promise<Decision>((resolve) => {
      const onAbort = () =>
        resolve({ status: "rejected", reason: "the run was stopped before anyone decided" });
      if (signal?.aborted) onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting = new Map(this.#waiting).set(toolCall.id, (value) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      });
    });
    const waiting = new Map(this.#waiting);
    waiting.delete(toolCall.id);
    this.#waiting = waiting;
    this.#host.settle(request, decided(request, decision.status, decision.reason));
    if (decision.status === "approved") return undefined;
    return { block: true, reason: rejectionText(toolCall.name, decision.reason) };
  };
}
