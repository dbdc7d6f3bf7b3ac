import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { forEachModelMessage } from "../messages/convert.ts";
import type { ContextSettings } from "../messages/policies.ts";
import { estimateTokens } from "./tokens.ts";
import { compactionStart, isCompactedAway } from "./transform.ts";
import { countOf } from "../../shared/count-of.ts";

/** What happens to one fact on its way to the model. */
export type Fate = "sent" | "converted" | "hidden" | "excluded" | "compacted";

export const FATE_LABELS: Record<Fate, string> = {
  sent: "sent as-is",
  converted: "converted to user",
  hidden: "hidden by policy",
  excluded: "excluded (!!)",
  compacted: "dropped by compaction",
};

export interface FateCounts {
  sent: number;
  converted: number;
  hidden: number;
  excluded: number;
  compacted: number;
}

/**
 * The model view with provenance: the exact `Message[]` the next request carries, computed by the same
 * pipeline the Agent runs (transformContext, then convertToLlm), plus which fact each message came from
 * and what became of every fact. Each model message comes from exactly one fact.
 */
export interface ModelView {
  messages: Message[];
  /** Index of the source fact of each model message. */
  sourceOf: Int32Array;
  /** Index of the model message of each fact, or -1 when the fact does not reach the model. */
  targetOf: Int32Array;
  fates: Fate[];
  counts: FateCounts;
  factTokens: number;
  modelTokens: number;
}

export function projectModelView(facts: readonly AgentMessage[], settings: ContextSettings): ModelView {
  const start = compactionStart(facts, settings.applyCompaction);
  const fates = new Array<Fate>(facts.length);
  const targetOf = new Int32Array(facts.length).fill(-1);
  const sources: number[] = [];
  const messages: Message[] = [];
  const counts: FateCounts = { sent: 0, converted: 0, hidden: 0, excluded: 0, compacted: 0 };
  let factTokens = 0;
  let modelTokens = 0;

  for (let index = 0; index < start; index++) {
    const fact = facts[index] as AgentMessage;
    if (isCompactedAway(fact, index, start)) fates[index] = "compacted";
  }
  forEachModelMessage(
    facts,
    settings.policies,
    (message, factIndex) => {
      targetOf[factIndex] = messages.length;
      sources.push(factIndex);
      messages.push(message);
      modelTokens += estimateTokens(message);
    },
    {
      skip: (fact, index) => isCompactedAway(fact, index, start),
      onFate: (index, conversion) => {
        fates[index] = conversion.fate;
      },
    },
  );
  for (let index = 0; index < facts.length; index++) {
    counts[fates[index] as Fate]++;
    factTokens += estimateTokens(facts[index] as AgentMessage);
  }
  return { messages, sourceOf: Int32Array.from(sources), targetOf, fates, counts, factTokens, modelTokens };
}

/** "12 facts → 9 model messages: 2 hidden, 1 excluded, 3 converted". */
export function summarize(view: ModelView): string {
  const facts = view.fates.length;
  const parts: string[] = [];
  if (view.counts.hidden) parts.push(`${view.counts.hidden} hidden`);
  if (view.counts.excluded) parts.push(`${view.counts.excluded} excluded`);
  if (view.counts.compacted) parts.push(`${view.counts.compacted} compacted`);
  if (view.counts.converted) parts.push(`${view.counts.converted} converted`);
  const head = `${countOf(facts, "fact")} → ${countOf(view.messages.length, "model message")}`;
  return parts.length > 0 ? `${head}: ${parts.join(", ")}` : head;
}
