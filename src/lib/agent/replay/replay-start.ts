import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionSettings } from "../session-settings.ts";
import { replayScript, type ReplayChanges } from "./replay-plan.ts";
import { ReplayRun } from "./replay-run.svelte.ts";

/** What a replay starts from: the session's path as it is now. */
export interface ReplaySource {
  facts: readonly AgentMessage[];
  /** The entry behind each fact. */
  factIds: readonly string[];
  leafId: string | null;
  settings: SessionSettings;
}

/**
 * A replay of the branch the session is on, from the fact at `fromIndex`, with these changes; or why it
 * cannot be made. The changes are checked against the session (a fact left out must come before the fact
 * replayed from, and be one).
 */
export function prepareReplay(
  source: ReplaySource,
  fromIndex: number,
  changes: ReplayChanges,
  now = Date.now(),
): ReplayRun | string {
  const fromEntryId = source.factIds[fromIndex];
  if (fromEntryId === undefined || source.leafId === null)
    return "That fact is not on the branch the session is on.";
  const script = replayScript(source.facts, fromIndex);
  if (script.inputs.length === 0 && script.originalCalls === 0)
    return "Nothing follows that fact on this branch: there is nothing to replay.";
  const before = new Set(source.factIds.slice(0, fromIndex + 1));
  const omit = changes.omit?.filter((id) => before.has(id));
  if (changes.omit && omit?.length !== changes.omit.length)
    return "Only facts up to the one replayed from can be left out of what the model reads.";
  const { settings } = source;
  return new ReplayRun(
    { fromEntryId, originalLeafId: source.leafId, changes, startedAt: now },
    script,
    source.facts,
    {
      policies: { ...settings.context.policies, ...changes.policies },
      model: changes.model ?? settings.model,
      thinkingLevel: changes.thinkingLevel ?? settings.thinkingLevel,
      sampling: changes.sampling ?? settings.sampling,
    },
  );
}
