import type { ImageContent, TextContent } from "@earendil-works/pi-ai";

/**
 * The playground's custom session facts, added to pi-agent-core's `AgentMessage` by declaration merging.
 * None of them is understood by a model: `convertToLlm` decides, per type, whether and how each reaches it.
 *
 * The first four have the shapes and field names of pi's coding agent 1.6.0; the last three come from the
 * pi tutorial (notifications, approval cards, progress logs) and are hidden from the model by default.
 */

/** A shell command the user ran with `!` (or `!!`, which keeps it out of the model's context). */
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  /** Undefined while unknown (e.g. the command was killed before reporting one). */
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  /** Where the untruncated output was saved, named in the model's text when `truncated`. */
  fullOutputPath?: string;
  timestamp: number;
  /** Set by the `!!` prefix: recorded in the session, never sent to the model. */
  excludeFromContext?: boolean;
}

/** A message injected by an extension (pi's `sendCustomMessage`); always sent to the model as user content. */
export interface CustomMessage<T = unknown> {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  /** Whether the chat shows it; it is in the facts, and sent to the model, either way. */
  display: boolean;
  details?: T;
  timestamp: number;
}

/** Inserted where the conversation returns from a branch, summarising what happened there. */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string | null;
  timestamp: number;
}

/** Inserted by compaction: the turns before it are summarised here and no longer sent to the model. */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  /**
   * Context size before compaction, kept for diagnostics. A file's compaction may have none, which pi's
   * summary keeps as it is (undefined); the type stays pi's own, since both declarations of this message
   * must agree wherever the playground and pi coding agent are compiled together.
   */
  tokensBefore: number;
  timestamp: number;
}

export const NOTIFICATION_LEVELS = ["info", "warning", "error"] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** Something the user should see (an upload finished, a limit was hit); the model sees it only by policy. */
export interface NotificationMessage {
  role: "notification";
  text: string;
  /** Absent in the tutorial's shortest form; read as "info". */
  level?: NotificationLevel;
  timestamp: number;
}

export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A human decision, kept as an audit trail. Tool approvals fill the tool fields. */
export interface ApprovalRequestMessage {
  role: "approval_request";
  /** What is asked, in words: "Run save_note", "Deploy to production". */
  action: string;
  status: ApprovalStatus;
  /** What the request refers to, for hand-made requests: a ticket, a file, a plan step. */
  subject?: string;
  /** Set when the request gates a tool call: the call it guards. */
  toolCallId?: string;
  toolName?: string;
  toolArgs?: unknown;
  /** When the decision was made; absent while pending. */
  decidedAt?: number;
  /** Why it was rejected, as the model will read it in the tool result. */
  reason?: string;
  timestamp: number;
}

/** A progress log line: shown in the chat, invisible to the model unless its policy says otherwise. */
export interface ProgressMessage {
  role: "progress";
  text: string;
  /** Completion between 0 and 1, when known. */
  fraction?: number;
  timestamp: number;
}

declare module "@earendil-works/pi-agent-core" {
  interface CustomAgentMessages {
    bashExecution: BashExecutionMessage;
    custom: CustomMessage;
    branchSummary: BranchSummaryMessage;
    compactionSummary: CompactionSummaryMessage;
    notification: NotificationMessage;
    approval_request: ApprovalRequestMessage;
    progress: ProgressMessage;
  }
}

/** Roles a model understands; everything else must be converted or dropped before a request. */
export const LLM_ROLES = ["system", "user", "assistant", "toolResult"] as const;

/** Tutorial types whose visibility is a per-session policy rather than a fixed rule. */
export const POLICY_ROLES = ["notification", "approval_request", "progress"] as const;
export type PolicyRole = (typeof POLICY_ROLES)[number];
