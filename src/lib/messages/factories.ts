import type { AssistantMessage, ImageContent, TextContent, UserMessage } from "@earendil-works/pi-ai";
import { zeroUsage } from "../../shared/usage.ts";
import type {
  ApprovalRequestMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
  NotificationLevel,
  NotificationMessage,
  ProgressMessage,
} from "./types.ts";

/**
 * Factories for every fact type. Timestamps are numbers (milliseconds), defaulting to now; pi's coding
 * agent factories take ISO strings instead, a difference that only matters to code porting from it.
 *
 * They stay here rather than in each kind's module (`kinds/<role>.ts`, whose injection form builds its fact
 * with them): the page's first chunk makes summaries and reads `INJECTED_API` while the kinds load on first
 * use, and moving the factories into the kinds pulled every kind into that chunk (measured: initial JS
 * 61.2 → 66.0 kB gzip, over its budget).
 */

export function createUserMessage(text: string, timestamp = Date.now()): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** Marks assistant messages written by hand: no model produced them, so they prove nothing was sent. */
export const INJECTED_API = "injected";

export function createInjectedAssistantMessage(text: string, timestamp = Date.now()): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: INJECTED_API,
    provider: "injected",
    model: "hand-written",
    usage: zeroUsage(),
    stopReason: "stop",
    timestamp,
  };
}

export function createBashExecution(
  fields: Omit<BashExecutionMessage, "role" | "timestamp">,
  timestamp = Date.now(),
): BashExecutionMessage {
  const message: BashExecutionMessage = {
    role: "bashExecution",
    command: fields.command,
    output: fields.output,
    exitCode: fields.exitCode,
    cancelled: fields.cancelled,
    truncated: fields.truncated,
    timestamp,
  };
  if (fields.fullOutputPath) message.fullOutputPath = fields.fullOutputPath;
  if (fields.excludeFromContext) message.excludeFromContext = true;
  return message;
}

export function createCustomMessage(
  customType: string,
  content: string | (TextContent | ImageContent)[],
  display: boolean,
  details?: unknown,
  timestamp = Date.now(),
): CustomMessage {
  const message: CustomMessage = { role: "custom", customType, content, display, timestamp };
  if (details !== undefined) message.details = details;
  return message;
}

export function createBranchSummary(
  summary: string,
  fromId: string | null,
  timestamp = Date.now(),
): BranchSummaryMessage {
  return { role: "branchSummary", summary, fromId, timestamp };
}

export function createCompactionSummary(
  summary: string,
  tokensBefore: number,
  timestamp = Date.now(),
): CompactionSummaryMessage {
  return { role: "compactionSummary", summary, tokensBefore, timestamp };
}

export function createNotification(
  text: string,
  level: NotificationLevel = "info",
  timestamp = Date.now(),
): NotificationMessage {
  return { role: "notification", text, level, timestamp };
}

export function createApprovalRequest(
  fields: Omit<ApprovalRequestMessage, "role" | "timestamp" | "status"> & {
    status?: ApprovalRequestMessage["status"];
  },
  timestamp = Date.now(),
): ApprovalRequestMessage {
  return { role: "approval_request", status: "pending", ...fields, timestamp };
}

export function createProgress(text: string, fraction?: number, timestamp = Date.now()): ProgressMessage {
  const message: ProgressMessage = { role: "progress", text, timestamp };
  if (fraction !== undefined) message.fraction = fraction;
  return message;
}
