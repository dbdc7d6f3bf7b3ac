import type { Message } from "@earendil-works/pi-ai";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import type { SessionEntry } from "../messages/entries.ts";
import { POLICY_ROLES } from "../messages/types.ts";
import type { CallRecord } from "../storage/records.ts";
import type { CallBody, KeptBody } from "./call-body.ts";
import type { EntryIndex } from "./entry-index.ts";

/**
 * What changed between two calls of a session as far as the records show: an entry that marks the
 * timeline (a compaction, a return with a summary, a context edit, a model change), and what the two
 * calls' records and bodies differ in (the model, the thinking level, the branch, the system prompt and
 * tools, a policy that hid or showed a fact).
 */

export type ChangeKind =
  | "compaction"
  | "branchSummary"
  | "fork"
  | "branch"
  | "contextEdit"
  | "model"
  | "thinking"
  | "systemPrompt"
  | "tools"
  | "policy";

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  compaction: "compaction",
  branchSummary: "return with a branch summary",
  fork: "fork",
  branch: "moved to another branch",
  contextEdit: "context edit",
  model: "model change",
  thinking: "thinking level change",
  systemPrompt: "system prompt edit",
  tools: "tools changed",
  policy: "policy change",
};

export interface Change {
  kind: ChangeKind;
  text: string;
  entryId?: string;
}

/** Entry types that mark the timeline: each is a change of what the next call is sent. */
export const MARKED_ENTRIES = new Set(["compaction", "branch_summary", "context_edit", "model_change"]);

/** The change an entry marks, or undefined for an entry of a type that marks none. */
export function entryChange(entry: SessionEntry, index: EntryIndex): Change | undefined {
  switch (entry.type) {
    case "compaction":
      return {
        kind: "compaction",
        text:
          entry.tokensBefore === undefined
            ? "compacted"
            : `compacted: ${entry.tokensBefore.toLocaleString("en-US")} tokens before`,
        entryId: entry.id,
      };
    case "branch_summary":
      return { kind: "branchSummary", text: "came back from a branch with a summary", entryId: entry.id };
    case "context_edit": {
      const role = index.roleOf(entry.targetId) ?? "an entry";
      return {
        kind: "contextEdit",
        text: entry.replacement === null ? `${role} left out by an edit` : `${role} edited`,
        entryId: entry.targetId,
      };
    }
    case "model_change":
      return { kind: "model", text: `model set to ${entry.provider}/${entry.modelId}`, entryId: entry.id };
    // The others change nothing the next call is sent, or change it as a message does.
    case "message":
    case "thinking_level_change":
    case "usage":
    case "custom":
    case "custom_message":
    case "label":
    case "session_info":
    case "unknown":
      return undefined;
  }
}

/** What the records of two consecutive calls differ in, in the order the timeline lists it. */
export function changesBetweenCalls(
  previous: { call: CallRecord; body: CallBody },
  call: CallRecord,
  body: CallBody,
  index: EntryIndex,
): Change[] {
  const changes: Change[] = [];
  const before = previous.call;
  if (before.provider !== call.provider || before.modelId !== call.modelId)
    changes.push({
      kind: "model",
      text: `model changed from ${before.provider}/${before.modelId} to ${call.provider}/${call.modelId}`,
    });
  const thinkingBefore = String(before.options.reasoning ?? "off");
  const thinkingNow = String(call.options.reasoning ?? "off");
  if (thinkingBefore !== thinkingNow)
    changes.push({ kind: "thinking", text: `thinking from ${thinkingBefore} to ${thinkingNow}` });
  if (
    before.replyEntryId &&
    call.leafId !== null &&
    index.entry(before.replyEntryId) &&
    !index.isOnPathTo(before.replyEntryId, call.leafId)
  )
    changes.push({
      kind: "branch",
      text: "continued from another point of the session (a fork or a return)",
      entryId: call.leafId,
    });
  if (previous.body.kind === "kept" && body.kind === "kept") {
    const was = systemState(previous.body.messages);
    const now = systemState(body.messages);
    const systemId =
      body.sources[body.messages.findIndex((message) => message.role === "system")] ?? undefined;
    if (was.prompt !== now.prompt)
      changes.push({
        kind: "systemPrompt",
        text: "system prompt edited",
        ...(systemId ? { entryId: systemId } : {}),
      });
    if (was.tools !== now.tools)
      changes.push({
        kind: "tools",
        text: "tool definitions changed",
        ...(systemId ? { entryId: systemId } : {}),
      });
    changes.push(...policyChanges({ call: before, body: previous.body }, call, body, index));
  }
  return changes;
}

function systemState(messages: readonly Message[]): { prompt: string; tools: string } {
  let prompt = "";
  let tools = "";
  for (const message of messages) {
    if (message.role !== "system") continue;
    prompt += getSystemMessageText(message);
    tools += JSON.stringify([message.toolsAdded ?? [], message.toolsRemoved ?? []]);
  }
  return { prompt, tools };
}

const POLICY = new Set<string>(POLICY_ROLES);

/** Facts of a policy type one request carried and the other did not, while both had them on their path. */
function policyChanges(
  previous: { call: CallRecord; body: KeptBody },
  call: CallRecord,
  body: KeptBody,
  index: EntryIndex,
): Change[] {
  const before = new Set(previous.body.sources);
  const after = new Set(body.sources);
  const changes = new Map<string, Change>();
  for (const id of before) {
    const role = index.roleOf(id);
    if (!id || after.has(id) || !role || !POLICY.has(role)) continue;
    if (call.leafId !== null && index.isOnPathTo(id, call.leafId))
      changes.set(`hide:${role}`, { kind: "policy", text: `${role} facts no longer sent`, entryId: id });
  }
  for (const id of after) {
    const role = index.roleOf(id);
    if (!id || before.has(id) || !role || !POLICY.has(role)) continue;
    if (previous.call.leafId !== null && index.isOnPathTo(id, previous.call.leafId))
      changes.set(`show:${role}`, {
        kind: "policy",
        text: `${role} facts now sent as user text`,
        entryId: id,
      });
  }
  return [...changes.values()];
}
