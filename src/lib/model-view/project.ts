import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { forEachModelMessage } from "../messages/convert.ts";
import type { ContextSettings } from "../messages/policies.ts";
import { countOf } from "../../shared/count-of.ts";
import { projectSession, type ContextFate, type SessionProjection } from "./session-projection.ts";
import { estimateTokens } from "./tokens.ts";

/** What happens to one fact on its way to the model. */
export type Fate =
  | "sent"
  | "converted"
  | "hidden"
  | "excluded"
  | "compacted"
  | "edited"
  | "omitted"
  | "failedAttempt"
  | "unknown";

export const FATE_LABELS: Record<Fate, string> = {
  sent: "sent as-is",
  converted: "converted to user",
  hidden: "hidden by policy",
  excluded: "excluded (!!)",
  compacted: "dropped by compaction",
  edited: "edited: sent with new content",
  omitted: "omitted by an edit",
  failedAttempt: "left out: failed attempt",
  unknown: "unknown type, not sent",
};

export type FateCounts = Record<Fate, number>;

const NO_COUNTS: FateCounts = {
  sent: 0,
  converted: 0,
  hidden: 0,
  excluded: 0,
  compacted: 0,
  edited: 0,
  omitted: 0,
  failedAttempt: 0,
  unknown: 0,
};

/**
 * The model view with provenance: the exact `Message[]` the next request carries, computed by the same
 * pipeline the session runs (the session projection — path, compaction, context edits — then
 * `convertToLlm`), plus which fact each message came from and what became of every fact.
 */
export interface ModelView {
  messages: Message[];
  /** Index of the source fact of each model message. */
  sourceOf: Int32Array;
  /** Index of the model message of each fact, or -1 when the fact does not reach the model. */
  targetOf: Int32Array;
  fates: Fate[];
  /** For facts changed by a context edit: the edit, the original and what the model reads instead. */
  edits: ReadonlyMap<number, Extract<ContextFate, { kind: "edited" | "omitted" }>>;
  counts: FateCounts;
  factTokens: number;
  modelTokens: number;
}

export function projectModelView(projection: SessionProjection, settings: ContextSettings): ModelView {
  const { facts, context, contextFacts } = projection;
  const fates = new Array<Fate>(facts.length);
  const edits = new Map<number, Extract<ContextFate, { kind: "edited" | "omitted" }>>();
  projection.fates.forEach((fate, index) => {
    if (fate.kind === "compacted") fates[index] = "compacted";
    else if (fate.kind === "omitted") {
      fates[index] = fate.failedAttempt ? "failedAttempt" : "omitted";
      edits.set(index, fate);
    } else if (fate.kind === "edited") edits.set(index, fate);
  });
  const targetOf = new Int32Array(facts.length).fill(-1);
  const sources: number[] = [];
  const messages: Message[] = [];
  let modelTokens = 0;
  forEachModelMessage(
    context,
    settings.policies,
    (message, contextIndex) => {
      const factIndex = contextFacts[contextIndex] ?? -1;
      if (factIndex >= 0 && targetOf[factIndex] === -1) targetOf[factIndex] = messages.length;
      sources.push(factIndex);
      messages.push(message);
      modelTokens += estimateTokens(message);
    },
    {
      onFate: (contextIndex, conversion) => {
        const factIndex = contextFacts[contextIndex] ?? -1;
        if (factIndex < 0) return;
        fates[factIndex] = edits.has(factIndex) ? "edited" : conversion.fate;
      },
    },
  );
  const counts = { ...NO_COUNTS };
  let factTokens = 0;
  for (let index = 0; index < facts.length; index++) {
    counts[fates[index] ?? "sent"]++;
    factTokens += estimateTokens(facts[index] as AgentMessage);
  }
  return {
    messages,
    sourceOf: Int32Array.from(sources),
    targetOf,
    fates,
    edits,
    counts,
    factTokens,
    modelTokens,
  };
}

/** The model view of a plain list of facts (one path, nothing edited): examples, tests and benchmarks. */
export function projectFacts(facts: readonly AgentMessage[], settings: ContextSettings): ModelView {
  return projectModelView(projectSession(pathOfFacts(facts), settings), settings);
}

/** Facts as one path of entries, each entry cached per fact so repeated projections reuse them. */
const entryOfFact = new WeakMap<AgentMessage, SessionEntry>();

function pathOfFacts(facts: readonly AgentMessage[]): SessionEntry[] {
  let parent: string | null = null;
  return facts.map((fact, index) => {
    let entry = entryOfFact.get(fact);
    if (!entry || entry.parentId !== parent) {
      entry = chainEntries([fact], parent, () => false)[0] as SessionEntry;
      entry = { ...entry, id: `fact-${index}` };
      entryOfFact.set(fact, entry);
    }
    parent = entry.id;
    return entry;
  });
}

/** "12 facts → 9 model messages: 2 hidden, 1 excluded, 3 converted". */
export function summarize(view: ModelView): string {
  const facts = view.fates.length;
  const parts: string[] = [];
  const { counts } = view;
  if (counts.hidden) parts.push(`${counts.hidden} hidden`);
  if (counts.excluded) parts.push(`${counts.excluded} excluded`);
  if (counts.compacted) parts.push(`${counts.compacted} compacted`);
  if (counts.edited) parts.push(`${counts.edited} edited`);
  if (counts.omitted) parts.push(`${counts.omitted} omitted`);
  if (counts.failedAttempt) parts.push(`${countOf(counts.failedAttempt, "failed attempt")} left out`);
  if (counts.unknown) parts.push(`${counts.unknown} of unknown type`);
  if (counts.converted) parts.push(`${counts.converted} converted`);
  const head = `${countOf(facts, "fact")} → ${countOf(view.messages.length, "model message")}`;
  return parts.length > 0 ? `${head}: ${parts.join(", ")}` : head;
}
