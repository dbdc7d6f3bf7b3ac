import type { AgentMessage, AgentToolResult, ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { ToolResultMessage } from "@earendil-works/pi-ai";
import { isThinkingLevel } from "../../../shared/enums.ts";
import { isObject } from "../../../shared/is-object.ts";
import { positiveInt } from "../../../shared/positive-int.ts";
import { storedSampling, type Sampling } from "../../../shared/sampling.ts";
import type { Visibility } from "../../messages/policies.ts";
import { POLICY_ROLES, type PolicyRole } from "../../messages/types.ts";
import type { ModelRef } from "../../models/model-ref.ts";

/**
 * A replay runs a session's agent loop again from one of its facts, on a branch of its own, with some
 * changes: the facts a person (or the page) added after that fact are delivered again where they were,
 * the model answers anew, and each tool call gets the result recorded for the same call. This module reads
 * the recorded branch into that script; it runs nothing.
 */

/** What a replay changes; every field left out is the session's own. */
export interface ReplayChanges {
  policies?: Partial<Record<PolicyRole, Visibility>>;
  model?: ModelRef;
  thinkingLevel?: ThinkingLevel;
  /** The leading system message's text, for every request of the replay. */
  systemPrompt?: string;
  sampling?: Sampling;
  /** The session's tools offered to the model during the replay, by name (switched off ones included). */
  tools?: string[];
  /** Entries (before the fact replayed from) the model does not read during the replay: pi context edits. */
  omit?: string[];
}

/** What the replay's first entry keeps (a pi `custom` entry: never part of the model's context). */
export interface ReplayRecord {
  /** The fact the replay starts after. */
  fromEntryId: string;
  /** The end of the branch replayed, which the replay is compared with. */
  originalLeafId: string;
  changes: ReplayChanges;
  startedAt: number;
}

/** The `customType` of a replay's first entry. */
export const REPLAY_ENTRY_TYPE = "pi-playground.replay";

/** Facts delivered again before the replay's call number `callsBefore` (counted from 0), as they were. */
export interface ReplayInputs {
  callsBefore: number;
  messages: AgentMessage[];
}

export interface ReplayScript {
  inputs: ReplayInputs[];
  /** Model calls the recorded branch made after the fact replayed from. */
  originalCalls: number;
}

/** A recorded tool result, as a tool returns it. */
export type RecordedResult = Pick<AgentToolResult<unknown>, "content" | "details" | "isError">;

/** A replay makes at most this many calls in all (`VITE_REPLAY_MAX_CALLS`): one that never ends is ended. */
export const REPLAY_MAX_CALLS = positiveInt(import.meta.env?.VITE_REPLAY_MAX_CALLS) ?? 200;

/** A replay makes at most twice the recorded calls and ten more, and never more than REPLAY_MAX_CALLS. */
export function replayCallLimit(originalCalls: number, ceiling = REPLAY_MAX_CALLS): number {
  return Math.min(ceiling, originalCalls * 2 + 10);
}

/**
 * The script of a replay from the fact at `fromIndex`: every later fact that no model call produced, grouped
 * by how many calls came before it. Replies are the model's to give again, results of tool calls made after
 * that fact come from the tools (recorded), pi's own declarations of changed tools are pi's to make again,
 * and approval requests and progress come from running tools, which a replay does not.
 */
export function replayScript(facts: readonly AgentMessage[], fromIndex: number): ReplayScript {
  const inputs: ReplayInputs[] = [];
  const calledHere = new Set<string>();
  let calls = 0;
  for (const fact of facts.slice(fromIndex + 1)) {
    if (fact.role === "assistant") {
      calls++;
      for (const part of fact.content) if (part.type === "toolCall") calledHere.add(part.id);
      continue;
    }
    if (fact.role === "toolResult" && calledHere.has(fact.toolCallId)) continue;
    if (fact.role === "approval_request" || fact.role === "progress") continue;
    if (isToolDeclaration(fact)) continue;
    const last = inputs.at(-1);
    if (last?.callsBefore === calls) last.messages.push(fact);
    else inputs.push({ callsBefore: calls, messages: [fact] });
  }
  return { inputs, originalCalls: calls };
}

/** A system message pi's agent loop adds to declare changed tools (empty content, tool fields only). */
function isToolDeclaration(fact: AgentMessage): boolean {
  return (
    fact.role === "system" &&
    fact.content === "" &&
    fact.sections === undefined &&
    (fact.toolsAdded !== undefined || fact.toolsRemoved !== undefined)
  );
}

/** A tool call's key: its name and its arguments as JSON with keys in order (so key order never matters). */
export function toolCallKey(name: string, args: unknown): string {
  return `${name} ${canonicalJson(args)}`;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isObject(inner) && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, inner[key]]),
        )
      : inner,
  );
}

/**
 * The tool results recorded on a branch, by call: each tool call of its replies paired with the result
 * that answered it. A call made again with the same name and arguments gets them in the order they were
 * recorded, and the last one again once they are used up.
 */
export class RecordedResults {
  readonly #byKey = new Map<string, RecordedResult[]>();
  readonly #used = new Map<string, number>();

  constructor(facts: readonly AgentMessage[]) {
    const calls = new Map<string, string>();
    for (const fact of facts) {
      if (fact.role === "assistant") {
        for (const part of fact.content)
          if (part.type === "toolCall") calls.set(part.id, toolCallKey(part.name, part.arguments));
      } else if (fact.role === "toolResult") {
        const key = calls.get(fact.toolCallId) ?? toolCallKey(fact.toolName, undefined);
        const list = this.#byKey.get(key) ?? [];
        list.push(resultOf(fact));
        this.#byKey.set(key, list);
      }
    }
  }

  get size(): number {
    let count = 0;
    for (const list of this.#byKey.values()) count += list.length;
    return count;
  }

  /** The recorded result for this call, if one was recorded for the same name and arguments. */
  take(name: string, args: unknown): RecordedResult | undefined {
    const key = toolCallKey(name, args);
    const list = this.#byKey.get(key);
    if (!list || list.length === 0) return undefined;
    const used = this.#used.get(key) ?? 0;
    this.#used.set(key, used + 1);
    return list[Math.min(used, list.length - 1)];
  }
}

function resultOf(fact: ToolResultMessage): RecordedResult {
  return { content: fact.content, details: fact.details as unknown, isError: fact.isError };
}

/** A replay's first entry's data, read back (from storage or a file); undefined when it is not one. */
export function readReplayRecord(data: unknown): ReplayRecord | undefined {
  if (!isObject(data)) return undefined;
  const { fromEntryId, originalLeafId, startedAt } = data;
  if (typeof fromEntryId !== "string" || typeof originalLeafId !== "string") return undefined;
  return {
    fromEntryId,
    originalLeafId,
    startedAt: typeof startedAt === "number" ? startedAt : 0,
    changes: readChanges(data.changes),
  };
}

function readChanges(raw: unknown): ReplayChanges {
  if (!isObject(raw)) return {};
  const changes: ReplayChanges = {};
  if (isObject(raw.policies)) {
    const policies: Partial<Record<PolicyRole, Visibility>> = {};
    for (const role of POLICY_ROLES) {
      const value = raw.policies[role];
      if (value === "hidden" || value === "userText") policies[role] = value;
    }
    changes.policies = policies;
  }
  if (isObject(raw.model) && typeof raw.model.provider === "string" && typeof raw.model.id === "string")
    changes.model = { provider: raw.model.provider, id: raw.model.id };
  if (isThinkingLevel(raw.thinkingLevel)) changes.thinkingLevel = raw.thinkingLevel;
  if (typeof raw.systemPrompt === "string") changes.systemPrompt = raw.systemPrompt;
  if (raw.sampling !== undefined) changes.sampling = storedSampling(raw.sampling);
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
  const tools = strings(raw.tools);
  if (tools) changes.tools = tools;
  const omit = strings(raw.omit);
  if (omit) changes.omit = omit;
  return changes;
}

/** The changes in words, for the replay's title ("unchanged" when there are none). */
export function describeChanges(changes: ReplayChanges): string {
  const parts: string[] = [];
  for (const [role, visibility] of Object.entries(changes.policies ?? {}))
    parts.push(`${role} ${visibility === "userText" ? "as user text" : "hidden"}`);
  if (changes.model) parts.push(`model ${changes.model.provider}/${changes.model.id}`);
  if (changes.thinkingLevel) parts.push(`thinking ${changes.thinkingLevel}`);
  if (changes.systemPrompt !== undefined) parts.push("system prompt");
  if (changes.sampling) {
    const sampling = [
      ...(changes.sampling.temperature !== undefined ? [`temperature ${changes.sampling.temperature}`] : []),
      ...(changes.sampling.maxTokens !== undefined ? [`max tokens ${changes.sampling.maxTokens}`] : []),
      ...Object.entries(changes.sampling.params ?? {}).map(([name, value]) => `${name} ${value}`),
    ];
    parts.push(...(sampling.length > 0 ? sampling : ["sampling at the provider's defaults"]));
  }
  if (changes.tools) parts.push(`tools: ${changes.tools.join(", ") || "none"}`);
  if (changes.omit?.length)
    parts.push(`${changes.omit.length} ${changes.omit.length === 1 ? "fact" : "facts"} left out`);
  return parts.length === 0 ? "unchanged" : parts.join(", ");
}
