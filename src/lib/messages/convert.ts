import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { contentParts } from "./content.ts";
import { createUserMessage } from "./factories.ts";
import { DEFAULT_POLICIES, type VisibilityPolicies } from "./policies.ts";
import type {
  ApprovalRequestMessage,
  BashExecutionMessage,
  NotificationMessage,
  ProgressMessage,
} from "./types.ts";

// The texts below are pi's coding agent 1.6.0 `convertToLlm`, byte for byte: a model that works with
// pi sessions sees the same text here. A conformance test compares the two implementations.
export const COMPACTION_SUMMARY_PREFIX = `The conversation history before this point was compacted into the following summary:

<summary>
`;
export const COMPACTION_SUMMARY_SUFFIX = `
</summary>`;
export const BRANCH_SUMMARY_PREFIX = `The following is a summary of a branch that this conversation came back from:

<summary>
`;
export const BRANCH_SUMMARY_SUFFIX = `</summary>`;

export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  if (message.output) {
    text += `\`\`\`\n${message.output}\n\`\`\``;
  } else {
    text += "(no output)";
  }
  if (message.cancelled) {
    text += "\n\n(command cancelled)";
  } else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  }
  return text;
}

export function notificationText(message: NotificationMessage): string {
  const level = message.level ?? "info";
  return level === "info" ? `[Notification] ${message.text}` : `[Notification: ${level}] ${message.text}`;
}

export function approvalText(message: ApprovalRequestMessage): string {
  const subject = message.subject ? ` (${message.subject})` : "";
  const reason = message.reason ? `: ${message.reason}` : "";
  return `[Approval request] ${message.action}${subject}: ${message.status}${reason}`;
}

export function progressText(message: ProgressMessage): string {
  const percent = message.fraction === undefined ? "" : ` ${Math.round(message.fraction * 100)}%`;
  return `[Progress${percent}] ${message.text}`;
}

/** How one fact fares on its way to the model, before ordering and compaction are considered. */
export type ConversionFate = "sent" | "converted" | "hidden" | "excluded" | "unknown";

export interface Conversion {
  fate: ConversionFate;
  /** The model message; absent when the fate is hidden or excluded. */
  message?: Message;
  /** Converted by a visibility policy; such messages never split a tool call from its results. */
  byPolicy?: boolean;
}

const SENT = (message: Message): Conversion => ({ fate: "sent", message });
const HIDDEN: Conversion = { fate: "hidden" };
const EXCLUDED: Conversion = { fate: "excluded" };
/** A role this version does not know (from a file or storage): never sent, as pi drops roles it does not know. */
const UNKNOWN: Conversion = { fate: "unknown" };

/**
 * Converted messages are cached per fact object and policy, so recomputing the model view returns the
 * same objects for unchanged facts: cheap to redo on every change, and stable identities for the UI.
 * Facts are never mutated in place (a change replaces the object), which keeps the cache correct.
 */
const cache = new WeakMap<object, { key: string; conversion: Conversion }>();

export function convertMessage(message: AgentMessage, policies: VisibilityPolicies): Conversion {
  switch (message.role) {
    case "system":
    case "user":
    case "assistant":
    case "toolResult":
      return SENT(message);
    case "bashExecution":
      if (message.excludeFromContext) return EXCLUDED;
      return cached(message, "", () => createUserMessage(bashExecutionToText(message), message.timestamp));
    case "custom":
      return cached(message, "", () => ({
        role: "user",
        content: contentParts(message.content),
        timestamp: message.timestamp,
      }));
    case "branchSummary":
      return cached(message, "", () =>
        createUserMessage(BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX, message.timestamp),
      );
    case "compactionSummary":
      return cached(message, "", () =>
        createUserMessage(
          COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX,
          message.timestamp,
        ),
      );
    case "notification":
      if (policies.notification === "hidden") return HIDDEN;
      return cached(
        message,
        "userText",
        () => createUserMessage(notificationText(message), message.timestamp),
        true,
      );
    case "approval_request":
      if (policies.approval_request === "hidden") return HIDDEN;
      return cached(
        message,
        "userText",
        () => createUserMessage(approvalText(message), message.timestamp),
        true,
      );
    case "progress":
      if (policies.progress === "hidden") return HIDDEN;
      return cached(
        message,
        "userText",
        () => createUserMessage(progressText(message), message.timestamp),
        true,
      );
    default: {
      // Adding a message type without deciding its fate here is a compile error; at run time, a role no
      // version of the playground knows (kept from a file) lands here and is never sent.
      const unhandled: never = message;
      void unhandled;
      return UNKNOWN;
    }
  }
}

function cached(fact: object, key: string, build: () => Message, byPolicy = false): Conversion {
  const hit = cache.get(fact);
  if (hit && hit.key === key) return hit.conversion;
  const conversion: Conversion = { fate: "converted", message: build(), ...(byPolicy ? { byPolicy } : {}) };
  cache.set(fact, { key, conversion });
  return conversion;
}

/**
 * Walk the facts in order and emit model messages with the index of the fact each came from.
 *
 * One ordering rule goes beyond a plain map: a policy-converted fact recorded while a tool call is
 * still waiting for its result (a tool approval is decided between the call and its result) is emitted
 * after the results. Providers require results to follow their call directly; pi-ai would otherwise
 * invent "No result provided" results at the interruption.
 */
export interface WalkOptions {
  /** Called once per fact that is not skipped, with its conversion, in fact order. */
  onFate?: (factIndex: number, conversion: Conversion) => void;
  /** Facts that never reach conversion, e.g. those dropped by transformContext. */
  skip?: (fact: AgentMessage, index: number) => boolean;
}

export function forEachModelMessage(
  facts: readonly AgentMessage[],
  policies: VisibilityPolicies,
  emit: (message: Message, factIndex: number) => void,
  { onFate, skip }: WalkOptions = {},
): void {
  const waitingResults = new Set<string>();
  let held: { message: Message; index: number }[] = [];
  const flush = () => {
    for (const item of held) emit(item.message, item.index);
    held = [];
  };

  for (let index = 0; index < facts.length; index++) {
    const fact = facts[index] as AgentMessage;
    if (skip?.(fact, index)) continue;
    const conversion = convertMessage(fact, policies);
    onFate?.(index, conversion);
    const message = conversion.message;
    if (!message) continue;

    if (conversion.byPolicy && waitingResults.size > 0) {
      held.push({ message, index });
      continue;
    }
    if (message.role === "toolResult") {
      emit(message, index);
      waitingResults.delete(message.toolCallId);
      if (waitingResults.size === 0) flush();
      continue;
    }
    waitingResults.clear();
    flush();
    emit(message, index);
    if (message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted") {
      for (const block of message.content) if (block.type === "toolCall") waitingResults.add(block.id);
    }
  }
  flush();
}

/** The Agent's `convertToLlm`: facts in, the messages a provider receives out. Callable as pi calls it, with one argument. */
export function convertToLlm(
  facts: readonly AgentMessage[],
  policies: VisibilityPolicies = DEFAULT_POLICIES,
): Message[] {
  const out: Message[] = [];
  forEachModelMessage(facts, policies, (message) => out.push(message));
  return out;
}
