import type { AgentMessage } from "@earendil-works/pi-agent-core";

/**
 * The playground's `transformContext`: compaction. A compaction summary stands in for every turn before
 * it, so those facts stay in the session (for people and audit) but leave the model's context. System
 * messages are kept, because they carry the prompt and the tool declarations the rest relies on.
 */
export function compactionStart(facts: readonly AgentMessage[], applyCompaction: boolean): number {
  if (!applyCompaction) return 0;
  for (let index = facts.length - 1; index >= 0; index--) {
    if (facts[index]?.role === "compactionSummary") return index;
  }
  return 0;
}

export function isCompactedAway(fact: AgentMessage, index: number, start: number): boolean {
  return index < start && fact.role !== "system";
}

export function transformContext(facts: readonly AgentMessage[], applyCompaction: boolean): AgentMessage[] {
  const start = compactionStart(facts, applyCompaction);
  if (start === 0) return facts.slice();
  return facts.filter((fact, index) => !isCompactedAway(fact, index, start));
}
