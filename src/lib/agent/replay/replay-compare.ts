import type { Message, Usage } from "@earendil-works/pi-ai";
import { pathTo, type CustomEntry, type SessionEntry } from "../../messages/entries.ts";
import { diffRequests, type RequestDiff } from "../../model-view/request-diff.ts";
import type { CallRecord } from "../../storage/records.ts";
import { readReplayRecord, REPLAY_ENTRY_TYPE, type ReplayRecord } from "./replay-plan.ts";

/** A replay as the session's tree keeps it: its first entry, and the two branches it compares. */
export interface ReplayBranches {
  entryId: string;
  record: ReplayRecord;
  /** The entries after the fact replayed from, on the recorded branch. */
  original: SessionEntry[];
  /** The entries after the replay's first entry, on the replay's branch (to its latest entry). */
  replay: SessionEntry[];
  /** The replay branch's latest entry. */
  leafId: string;
}

/** Every replay of a session, oldest first, read from its entries (so reload, export and import keep them). */
export function replaysOf(entries: readonly SessionEntry[]): ReplayBranches[] {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const replays: ReplayBranches[] = [];
  for (const entry of entries) {
    if (entry.type !== "custom" || entry.customType !== REPLAY_ENTRY_TYPE) continue;
    const record = readReplayRecord(entry.data);
    if (!record || !byId.has(record.fromEntryId)) continue;
    const leafId = latestBelow(entries, entry);
    const after = (path: SessionEntry[], id: string) => path.slice(path.findIndex((e) => e.id === id) + 1);
    const originalPath = pathTo(byId, record.originalLeafId);
    replays.push({
      entryId: entry.id,
      record,
      original: originalPath.some((e) => e.id === record.fromEntryId)
        ? after(originalPath, record.fromEntryId)
        : [],
      replay: after(pathTo(byId, leafId), entry.id),
      leafId,
    });
  }
  return replays;
}

/** The latest entry that descends from `root` (in order of creation), or `root` itself. */
function latestBelow(entries: readonly SessionEntry[], root: CustomEntry): string {
  const below = new Set([root.id]);
  let latest = root.id;
  for (const entry of entries)
    if (entry.parentId !== null && below.has(entry.parentId)) {
      below.add(entry.id);
      latest = entry.id;
    }
  return latest;
}

/** The recorded calls (not re-runs) whose replies are among these entries, in the order they were made. */
export function callsOn(calls: readonly CallRecord[], branch: readonly SessionEntry[]): CallRecord[] {
  const ids = new Set(branch.map((entry) => entry.id));
  return calls
    .filter(
      (call) => call.variantOf === undefined && call.replyEntryId !== undefined && ids.has(call.replyEntryId),
    )
    .sort((a, b) => a.seq - b.seq);
}

/**
 * What a message records about its making rather than says to the model: when it was made, what its reply
 * cost and took, and the provider's id for it. pi-ai's adapters build no request field from them, and a
 * replay makes every message anew, so the comparison leaves them out.
 */
export const BOOKKEEPING_FIELDS = ["timestamp", "usage", "durationMs", "responseId"] as const;

/**
 * A model view as the replay compares it: the messages as sent, as JSON, without their bookkeeping (see
 * BOOKKEEPING_FIELDS); everything else (roles, content, tool calls and their ids, models, stop reasons)
 * counts.
 */
export function comparableView(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    const copy: Record<string, unknown> = { ...message };
    for (const field of BOOKKEEPING_FIELDS) delete copy[field];
    return copy as unknown as Message;
  });
}

export interface CallSide {
  call: CallRecord;
  /** The call's messages as sent; undefined when its record did not keep them whole. */
  messages: readonly Message[] | undefined;
}

export interface ComparedCall {
  index: number;
  original: CallSide | undefined;
  replay: CallSide | undefined;
  /** Both model views are equal as JSON; undefined when one side is missing or was not kept whole. */
  same: boolean | undefined;
  /** How the replay's model view differs from the original's (messages compared without their times). */
  diff: RequestDiff | undefined;
}

export interface Totals {
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  totalTokens: number;
  cost: number;
}

export interface ReplayComparison {
  calls: ComparedCall[];
  original: Totals;
  replay: Totals;
  /** The first call (from 0) whose model views differ, or that one side did not make; undefined: none. */
  firstDivergence: number | undefined;
}

/** Compare a replay's calls with the recorded branch's, call by call in order. */
export function compareReplay(original: readonly CallSide[], replay: readonly CallSide[]): ReplayComparison {
  const calls: ComparedCall[] = [];
  let firstDivergence: number | undefined;
  for (let index = 0; index < Math.max(original.length, replay.length); index++) {
    const before = original[index];
    const after = replay[index];
    let same: boolean | undefined;
    let diff: RequestDiff | undefined;
    if (before?.messages && after?.messages) {
      const left = comparableView(before.messages);
      const right = comparableView(after.messages);
      same = JSON.stringify(left) === JSON.stringify(right);
      diff = same ? undefined : diffRequests(left, right);
    }
    if (firstDivergence === undefined && (!before || !after || same === false)) firstDivergence = index;
    calls.push({ index, original: before, replay: after, same, diff });
  }
  return { calls, original: totals(original), replay: totals(replay), firstDivergence };
}

function totals(sides: readonly CallSide[]): Totals {
  const sum: Totals = { calls: sides.length, input: 0, output: 0, cacheRead: 0, totalTokens: 0, cost: 0 };
  for (const { call } of sides) {
    const usage: Usage = call.outcome.usage;
    sum.input += usage.input;
    sum.output += usage.output;
    sum.cacheRead += usage.cacheRead;
    sum.totalTokens += usage.totalTokens;
    sum.cost += usage.cost.total;
  }
  return sum;
}
