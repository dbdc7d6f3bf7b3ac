import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { approvalRequestKind } from "./approval-request.ts";
import { assistantKind } from "./assistant.ts";
import { bashExecutionKind } from "./bash-execution.ts";
import { branchSummaryKind } from "./branch-summary.ts";
import { compactionSummaryKind } from "./compaction-summary.ts";
import { customKind } from "./custom.ts";
import type { AnyMessageKind, Fact, MessageKind } from "./kind.ts";
import { notificationKind } from "./notification.ts";
import { progressKind } from "./progress.ts";
import { systemKind } from "./system.ts";
import { toolResultKind } from "./tool-result.ts";
import { unknownKind } from "./unknown.ts";
import { userKind } from "./user.ts";

/** Every role the playground defines: pi's own and the custom ones (declared in `../types.ts`). */
export type KnownRole = AgentMessage["role"];

/** The fact of one role. */
export type RoleMessage<R extends KnownRole> = Extract<AgentMessage, { role: R }>;

/** The registry's type: a kind for every role, each with every part. */
export type MessageKindTable = {
  readonly [R in KnownRole]: MessageKind<RoleMessage<R>> & { readonly role: R };
};

/**
 * The message kinds, one per role, one line each. A role of `AgentMessage` without a kind here, or a kind
 * missing a part, does not compile; adding a message type is its module (`kinds/<role>.ts`) and its line.
 */
export const MESSAGE_KINDS = {
  system: systemKind,
  user: userKind,
  assistant: assistantKind,
  toolResult: toolResultKind,
  notification: notificationKind,
  approval_request: approvalRequestKind,
  progress: progressKind,
  bashExecution: bashExecutionKind,
  custom: customKind,
  branchSummary: branchSummaryKind,
  compactionSummary: compactionSummaryKind,
} as const satisfies MessageKindTable;

/** Kinds added while the page runs (an extension's own role): looked up after the table, never over it. */
const added = new Map<string, MessageKind<Fact>>();

/**
 * Register a kind for a role nobody here defined (an extension's, a live pi's), so its facts are shown,
 * converted, counted and listed as the kind says rather than as unknown. Returns its removal.
 */
export function registerMessageKind<M extends Fact>(kind: MessageKind<M>): () => void {
  if (Object.hasOwn(MESSAGE_KINDS, kind.role) || added.has(kind.role))
    throw new Error(`A message kind for the role ${JSON.stringify(kind.role)} is registered already.`);
  added.set(kind.role, kind as unknown as MessageKind<Fact>);
  return () => {
    if (added.get(kind.role) === (kind as unknown)) added.delete(kind.role);
  };
}

/** The kind of a role: its registered one, or the generic kind of roles nobody registered. */
export function kindOfRole(role: unknown): AnyMessageKind {
  const known =
    typeof role === "string" && Object.hasOwn(MESSAGE_KINDS, role)
      ? MESSAGE_KINDS[role as KnownRole]
      : typeof role === "string"
        ? added.get(role)
        : undefined;
  // Each kind reads only facts of its own role: the lookup by role is what makes this cast hold.
  return (known ?? unknownKind) as unknown as AnyMessageKind;
}

/** The kind of a fact (see `kindOfRole`). */
export function kindOf(message: AgentMessage | Fact): AnyMessageKind {
  return kindOfRole((message as { role?: unknown }).role);
}

/** Whether a kind is registered for the role (the table's or one added while the page runs). */
export function isKnownRole(role: unknown): boolean {
  return typeof role === "string" && (Object.hasOwn(MESSAGE_KINDS, role) || added.has(role));
}

/** Every registered kind, the table's in its order and then those added while the page runs. */
export function messageKinds(): AnyMessageKind[] {
  return [...Object.values(MESSAGE_KINDS), ...added.values()] as unknown as AnyMessageKind[];
}
