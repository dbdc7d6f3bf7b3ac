import { diffRequests } from "../model-view/request-diff.ts";
import type { CallRecord } from "../storage/records.ts";
import type { KeptBody } from "./call-body.ts";
import type { Change, ChangeKind } from "./call-changes.ts";
import type { Composition } from "./composition.ts";
import type { EntryIndex } from "./entry-index.ts";

export interface CacheBreak {
  /** Messages the two requests share from the start; the previous call had `previousLength`. */
  position: number;
  previousLength: number;
  cause: string;
  /** The fact at the break, when one is to blame. */
  entryId: string | null;
  /** Tokens of this call after the break: input no prefix cache could serve. */
  tokensAfter: number;
}

/**
 * Where the prompt-cache prefix of `previous` broke in this call, and why as far as the changes show; none
 * when this request starts with the whole previous one on the same model.
 */
export function findCacheBreak(
  previous: { call: CallRecord; body: KeptBody },
  call: CallRecord,
  body: KeptBody,
  composition: Composition,
  changes: readonly Change[],
  index: EntryIndex,
): CacheBreak | undefined {
  const diff = diffRequests(previous.body.messages, body.messages);
  const modelChanged = changes.some((change) => change.kind === "model" && change.entryId === undefined);
  const previousLength = previous.body.messages.length;
  if (diff.commonPrefix >= previousLength && !modelChanged) return undefined;
  const position = modelChanged ? 0 : diff.commonPrefix;
  const { cause, entryId } = describeBreak(previous, call, body, position, changes, index);
  let tokensAfter = 0;
  for (let at = position; at < composition.messageTokens.length; at++)
    tokensAfter += composition.messageTokens[at] ?? 0;
  return { position, previousLength, cause, entryId, tokensAfter };
}

function describeBreak(
  previous: { call: CallRecord; body: KeptBody },
  call: CallRecord,
  body: KeptBody,
  position: number,
  changes: readonly Change[],
  index: EntryIndex,
): { cause: string; entryId: string | null } {
  const modelChange = changes.find((change) => change.kind === "model" && change.entryId === undefined);
  if (modelChange)
    return { cause: `${modelChange.text}: a prompt cache belongs to one model`, entryId: null };
  const before = previous.body.messages[position];
  const after = body.messages[position];
  const beforeId = previous.body.sources[position] ?? null;
  const afterId = body.sources[position] ?? null;
  if (before?.role === "system" || after?.role === "system") {
    const what = changes.filter((change) => change.kind === "systemPrompt" || change.kind === "tools");
    return {
      cause: what.length > 0 ? what.map((change) => change.text).join(" and ") : "the system message changed",
      entryId: afterId ?? beforeId,
    };
  }
  const blame = (kind: ChangeKind) => changes.find((change) => change.kind === kind);
  if (beforeId !== null && beforeId === afterId) {
    const edit = changes.find((change) => change.kind === "contextEdit" && change.entryId === beforeId);
    const role = index.roleOf(beforeId) ?? "fact";
    return {
      cause: edit
        ? `a context edit changed this ${role}`
        : `this ${role} was sent with new content (an approval decided, a fact replaced)`,
      entryId: beforeId,
    };
  }
  for (const kind of ["branch", "compaction", "branchSummary", "policy", "contextEdit"] as const) {
    const change = blame(kind);
    if (change) return { cause: change.text, entryId: change.entryId ?? beforeId ?? afterId };
  }
  if (before && !body.sources.includes(beforeId))
    return { cause: `this ${index.roleOf(beforeId) ?? "message"} is no longer sent`, entryId: beforeId };
  if (after)
    return {
      cause: `a ${index.roleOf(afterId) ?? "message"} was placed before the end of the previous request`,
      entryId: afterId,
    };
  return { cause: "the request is shorter than the previous one", entryId: beforeId };
}
