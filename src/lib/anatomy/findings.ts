import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import type { Fate } from "../model-view/project.ts";
import { countOf } from "../../shared/count-of.ts";
import type { Composition, MessageSource } from "./composition.ts";
import type { Rebilling } from "./rebilling.ts";
import type { CallAnatomy } from "./session-anatomy.ts";

/**
 * Findings: what in the session's calls costs more than it needs to, or leaves the model without
 * something it might be expected to know. Each says what it found, the numbers behind it, and where.
 */

/** A tool result this large (in tokens, in one call) is worth a look: every later call pays for it again. */
export const LARGE_TOOL_RESULT_TOKENS = 2_000;
/** Context past this share of the window leaves little room for the reply and the next turns. */
export const WINDOW_WARNING_SHARE = 0.8;
/** Repeated content shorter than this is common (short replies, "ok") and not worth a finding. */
export const DUPLICATE_MIN_CHARS = 400;

export type FindingKind =
  "largeToolResult" | "unusedTool" | "nearWindow" | "hiddenDecision" | "cacheBreak" | "duplicate";

export type FindingLink =
  { kind: "fact"; entryId: string } | { kind: "call"; seq: number } | { kind: "next" };

export interface Finding {
  kind: FindingKind;
  key: string;
  title: string;
  evidence: string;
  link: FindingLink;
  /** What the link leads to, as the button says it. */
  linkLabel: string;
}

export interface FindingsInput {
  calls: readonly CallAnatomy[];
  rebilling: Rebilling;
  next: {
    composition: Composition;
    messages: readonly Message[];
    sources: readonly MessageSource[];
    window: number | undefined;
  };
  /** The facts on the current path, with their entries and what becomes of each. */
  path: { entryId: string; fact: AgentMessage; fate: Fate }[];
  /** Role of the fact behind an entry, on any branch. */
  roleOf: (entryId: string | null) => string | undefined;
  /** Names of every tool the model called anywhere in the session. */
  calledTools: ReadonlySet<string>;
}

const tokens = (count: number) => `${Math.round(count).toLocaleString("en-US")} tokens`;
const percent = (share: number) => `${Math.round(share * 100)}%`;

export function largeToolResults(input: FindingsInput): Finding[] {
  const found: Finding[] = [];
  const billed = new Set<string>();
  for (const bill of input.rebilling.bills) {
    if (!bill.entryId || input.roleOf(bill.entryId) !== "toolResult") continue;
    billed.add(bill.entryId);
    if (bill.lastTokens < LARGE_TOOL_RESULT_TOKENS) continue;
    found.push({
      kind: "largeToolResult",
      key: `large:${bill.entryId}`,
      title: `A tool result of ${tokens(bill.lastTokens)}`,
      evidence: `Sent ${countOf(bill.calls, "time")} (calls #${bill.firstSeq + 1} to #${bill.lastSeq + 1}): ${tokens(bill.tokens)} of input so far, and again with every call while it stays in the context.`,
      link: { kind: "fact", entryId: bill.entryId },
      linkLabel: "Show the tool result",
    });
  }
  // Not sent yet: the next call will carry it.
  const { composition, sources } = input.next;
  composition.messageTokens.forEach((count, index) => {
    const entryId = sources[index]?.entryId;
    if (!entryId || billed.has(entryId) || count < LARGE_TOOL_RESULT_TOKENS) return;
    if (input.roleOf(entryId) !== "toolResult") return;
    found.push({
      kind: "largeToolResult",
      key: `large:${entryId}`,
      title: `A tool result of ${tokens(count)}`,
      evidence: `Not sent yet: the next call carries it (${composition.basis.kind === "usage" ? "" : "estimated, "}${percent(count / Math.max(1, composition.total))} of that call), and every call after it again.`,
      link: { kind: "fact", entryId },
      linkLabel: "Show the tool result",
    });
  });
  return found;
}

/** Tools the next call declares (after every addition and removal), with their definitions' size in characters. */
export function declaredTools(messages: readonly Message[]): Map<string, number> {
  const tools = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== "system") continue;
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, JSON.stringify(tool).length);
    for (const removed of message.toolsRemoved ?? []) tools.delete(removed.name);
  }
  return tools;
}

export function unusedTools(input: FindingsInput): Finding[] {
  const calls = input.calls.length;
  if (calls === 0) return [];
  const tools = declaredTools(input.next.messages);
  const allChars = [...tools.values()].reduce((sum, chars) => sum + chars, 0);
  const toolTokens =
    input.next.composition.categories.find((category) => category.category === "tools")?.tokens ?? 0;
  const systemIndex = input.next.messages.findIndex((message) => message.role === "system");
  const systemId = input.next.sources[systemIndex]?.entryId ?? null;
  const found: Finding[] = [];
  for (const [name, chars] of tools) {
    if (input.calledTools.has(name)) continue;
    const each = allChars > 0 ? (toolTokens * chars) / allChars : 0;
    found.push({
      kind: "unusedTool",
      key: `unused:${name}`,
      title: `Tool “${name}” is never called`,
      evidence: `Its definition (about ${tokens(each)}) goes with every call, and none of this session's ${countOf(calls, "call")} used it.`,
      link: systemId ? { kind: "fact", entryId: systemId } : { kind: "next" },
      linkLabel: systemId ? "Show the system message" : "Show the next call",
    });
  }
  return found;
}

export function nearWindow(input: FindingsInput): Finding[] {
  const found: Finding[] = [];
  for (const call of input.calls) {
    if (call.contextTokens === undefined || !call.window) continue;
    const share = call.contextTokens / call.window;
    if (share <= WINDOW_WARNING_SHARE) continue;
    found.push({
      kind: "nearWindow",
      key: `window:${call.seq}`,
      title: `Call #${call.seq + 1} filled ${percent(share)} of the context window`,
      evidence: `${tokens(call.contextTokens)} of ${tokens(call.window)} (${call.basis === "usage" ? "the provider's count" : "estimated"}): little room is left for the reply and the turns after it.`,
      link: { kind: "call", seq: call.seq },
      linkLabel: `Show call #${call.seq + 1}`,
    });
  }
  const { composition, window } = input.next;
  if (window && composition.total / window > WINDOW_WARNING_SHARE)
    found.push({
      kind: "nearWindow",
      key: "window:next",
      title: `The next call will fill ${percent(composition.total / window)} of the context window`,
      evidence: `About ${tokens(composition.total)} of ${tokens(window)} (estimated).`,
      link: { kind: "next" },
      linkLabel: "Show the next call",
    });
  return found;
}

export function hiddenDecisions(input: FindingsInput): Finding[] {
  const resultsSent = new Set<string>();
  for (const message of input.next.messages)
    if (message.role === "toolResult") resultsSent.add(message.toolCallId);
  const found: Finding[] = [];
  for (const { entryId, fact, fate } of input.path) {
    if (fact.role !== "approval_request" || fact.status === "pending" || fate !== "hidden") continue;
    // A tool's approval reaches the model through the tool's result (or the rejection's error).
    if (fact.toolCallId && resultsSent.has(fact.toolCallId)) continue;
    found.push({
      kind: "hiddenDecision",
      key: `hidden:${entryId}`,
      title: `“${fact.action}” was ${fact.status}, and the model is not told`,
      evidence: `The approval-request policy hides this decision${fact.reason ? ` (reason: ${fact.reason})` : ""}: nothing the model receives says so. Set approval requests to “as user text” if it should know.`,
      link: { kind: "fact", entryId },
      linkLabel: "Show the approval request",
    });
  }
  return found;
}

export function cacheBreaks(input: FindingsInput): Finding[] {
  const found: Finding[] = [];
  for (const call of input.calls) {
    const broken = call.cacheBreak;
    if (!broken) continue;
    found.push({
      kind: "cacheBreak",
      key: `cache:${call.seq}`,
      title: `Prompt cache prefix broken at call #${call.seq + 1}`,
      evidence: `It shares ${countOf(broken.position, "leading message")} of the previous call's ${broken.previousLength}: ${broken.cause}. ${tokens(broken.tokensAfter)} after that point could not come from a cache${call.basis === "usage" ? ` (the provider read ${tokens(call.cacheRead)} from its cache)` : ""}.`,
      link: broken.entryId ? { kind: "fact", entryId: broken.entryId } : { kind: "call", seq: call.seq },
      linkLabel: broken.entryId ? "Show the fact at the break" : `Show call #${call.seq + 1}`,
    });
  }
  return found;
}

function messageText(message: Message): string {
  if (message.role === "system") return "";
  const content = message.content as string | { type: string; text?: string }[] | undefined;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("\n");
}

export function duplicates(input: FindingsInput): Finding[] {
  const { messages, sources, composition } = input.next;
  const seen = new Map<string, number[]>();
  messages.forEach((message, index) => {
    const text = messageText(message);
    if (text.length < DUPLICATE_MIN_CHARS) return;
    const list = seen.get(text) ?? [];
    list.push(index);
    seen.set(text, list);
  });
  const found: Finding[] = [];
  for (const [text, indices] of seen) {
    if (indices.length < 2) continue;
    const last = indices.at(-1) ?? 0;
    const entryId = sources[last]?.entryId ?? null;
    const extra = indices.slice(1).reduce((sum, index) => sum + (composition.messageTokens[index] ?? 0), 0);
    found.push({
      kind: "duplicate",
      key: `duplicate:${indices.join(",")}`,
      title: `The same ${text.length.toLocaleString("en-US")} characters are sent ${indices.length} times`,
      evidence: `Messages ${indices.map((index) => index + 1).join(", ")} of the next call carry identical text (${indices.map((index) => input.roleOf(sources[index]?.entryId ?? null) ?? messages[index]?.role).join(", ")}); the repeats cost about ${tokens(extra)} per call.`,
      link: entryId ? { kind: "fact", entryId } : { kind: "next" },
      linkLabel: entryId ? "Show the repeat" : "Show the next call",
    });
  }
  return found;
}

export function findings(input: FindingsInput): Finding[] {
  return [
    ...largeToolResults(input),
    ...nearWindow(input),
    ...cacheBreaks(input),
    ...hiddenDecisions(input),
    ...duplicates(input),
    ...unusedTools(input),
  ];
}
