import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import { ModelMessageWalk, type Conversion } from "../messages/convert.ts";
import type { ContextSettings } from "../messages/policies.ts";
import type { ContextTally } from "./context-tally.ts";
import { countOf } from "../../shared/count-of.ts";
import {
  extensionOf,
  projectSession,
  type ContextFate,
  type SessionProjection,
} from "./session-projection.ts";

/** What happens to one fact on its way to the model. */
export type Fate =
  | "sent"
  | "converted"
  | "hidden"
  | "excluded"
  | "compacted"
  | "carried"
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
  carried: "sent as the compaction's copy",
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
  carried: 0,
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
  /**
   * Every fact's own size, summed; and the next call's context, anchored on the last reply's usage. Estimated
   * when first asked, by the estimate given (pi-ai's, bound in `view-tokens.ts`): only the inspector shows
   * them, so the estimator's code stays out of the page's first chunk.
   */
  factTokens(estimate: TokenEstimate): number;
  modelTokens(estimate: TokenEstimate): number;
}

/** The token estimate a view's totals are counted with (see `view-tokens.ts`). */
export interface TokenEstimate {
  fact(fact: AgentMessage): number;
  /**
   * The estimate of `messages`, continuing `before`, the estimate of the messages before `from` (none: from
   * the start). What it returns is kept, for a longer view to continue.
   */
  context(messages: readonly Message[], from: number, before: ContextTally | undefined): ContextTally;
}

export function projectModelView(projection: SessionProjection, settings: ContextSettings): ModelView {
  return buildView(projection, settings).view;
}

/** The model view and the walk that made it, which a view of a longer session can continue. */
function buildView(
  projection: SessionProjection,
  settings: ContextSettings,
): { view: ProjectedView; walk: ModelMessageWalk } {
  const { facts, context } = projection;
  const fates = new Array<Fate>(facts.length);
  const edits = new Map<number, Extract<ContextFate, { kind: "edited" | "omitted" }>>();
  projection.fates.forEach((fate, index) => {
    if (fate.kind === "compacted" || fate.kind === "carried") fates[index] = fate.kind;
    else if (fate.kind === "omitted") {
      fates[index] = fate.failedAttempt ? "failedAttempt" : "omitted";
      edits.set(index, fate);
    } else if (fate.kind === "edited") edits.set(index, fate);
  });
  const collect = new Collector(projection, fates, edits, new Int32Array(facts.length).fill(-1), [], 0);
  const walk = new ModelMessageWalk(settings.policies, collect.emit, { onFate: collect.onFate });
  for (let index = 0; index < context.length; index++) walk.step(context[index] as AgentMessage, index);
  walk.finish();
  return { view: collect.view(NO_COUNTS, [], undefined), walk };
}

/**
 * Receives a walk's messages and fates into the arrays of one view. The facts from `countFrom` on are new
 * to the view: their fates are counted.
 */
class Collector {
  /** The messages of the view extended, kept as they are: the new ones are joined to them once, at the end. */
  readonly #messagesBefore: readonly Message[];
  readonly #messages: Message[] = [];
  readonly sources: number[] = [];

  constructor(
    readonly projection: SessionProjection,
    readonly fates: Fate[],
    readonly edits: ModelView["edits"],
    readonly targetOf: Int32Array,
    messagesBefore: readonly Message[],
    readonly countFrom: number,
  ) {
    this.#messagesBefore = messagesBefore;
  }

  readonly emit = (message: Message, contextIndex: number): void => {
    const factIndex = this.projection.contextFacts[contextIndex] ?? -1;
    if (factIndex >= 0 && this.targetOf[factIndex] === -1)
      this.targetOf[factIndex] = this.#messagesBefore.length + this.#messages.length;
    this.sources.push(factIndex);
    this.#messages.push(message);
  };

  readonly onFate = (contextIndex: number, conversion: Conversion): void => {
    const factIndex = this.projection.contextFacts[contextIndex] ?? -1;
    if (factIndex < 0) return;
    this.fates[factIndex] = this.edits.has(factIndex) ? "edited" : conversion.fate;
  };

  /** The view, counting the new facts into `counts`; `tokensBefore` are the extended view's totals, if it had them. */
  view(
    counts: FateCounts,
    sourcesBefore: ArrayLike<number>,
    tokensBefore: TokensBefore | undefined,
  ): ProjectedView {
    const { facts } = this.projection;
    const total = { ...counts };
    for (let index = this.countFrom; index < facts.length; index++) total[this.fates[index] ?? "sent"]++;
    const sourceOf = new Int32Array(sourcesBefore.length + this.sources.length);
    sourceOf.set(sourcesBefore);
    sourceOf.set(this.sources, sourcesBefore.length);
    return new ProjectedView(
      {
        messages:
          this.#messages.length > 0
            ? this.#messagesBefore.concat(this.#messages)
            : this.#messagesBefore.slice(), // nothing new (a hidden fact): still a view of its own
        sourceOf,
        targetOf: this.targetOf,
        fates: this.fates,
        edits: this.edits,
        counts: total,
      },
      facts,
      tokensBefore,
    );
  }
}

/**
 * The token totals of a view that a longer one extends, as far as they were read: its facts and its
 * messages need no estimating again.
 */
interface TokensBefore {
  facts: { total: number; from: number } | undefined;
  context: { estimate: ContextTally; from: number } | undefined;
}

/**
 * A model view whose token totals are estimated when first read. Only the inspector shows them, and
 * estimating every fact of a session just opened costs as much as a fifth of projecting it. A view that
 * extends one whose totals were read estimates only the facts and messages it adds; it keeps the numbers,
 * never the older view (a chain of views, one per append, would otherwise stay in memory). The model's total
 * is pi-ai's anchored estimate of the whole context, which only estimates what follows the last usage.
 */
class ProjectedView implements ModelView {
  readonly messages: Message[];
  readonly sourceOf: Int32Array;
  readonly targetOf: Int32Array;
  readonly fates: Fate[];
  readonly edits: ModelView["edits"];
  readonly counts: FateCounts;
  readonly #facts: readonly AgentMessage[];
  #tokensBefore: TokensBefore | undefined;
  #factTokens: number | undefined;
  #modelTokens: ContextTally | undefined;

  constructor(
    parts: Omit<ModelView, "factTokens" | "modelTokens">,
    facts: readonly AgentMessage[],
    tokensBefore: TokensBefore | undefined,
  ) {
    this.messages = parts.messages;
    this.sourceOf = parts.sourceOf;
    this.targetOf = parts.targetOf;
    this.fates = parts.fates;
    this.edits = parts.edits;
    this.counts = parts.counts;
    this.#facts = facts;
    this.#tokensBefore = tokensBefore;
  }

  factTokens(estimate: TokenEstimate): number {
    if (this.#factTokens !== undefined) return this.#factTokens;
    const before = this.#tokensBefore?.facts;
    const facts = this.#facts;
    let total = before?.total ?? 0;
    for (let index = before?.from ?? 0; index < facts.length; index++)
      total += estimate.fact(facts[index] as AgentMessage);
    this.#factTokens = total;
    return total;
  }

  modelTokens(estimate: TokenEstimate): number {
    if (this.#modelTokens === undefined) {
      const before = this.#tokensBefore?.context;
      this.#modelTokens = estimate.context(this.messages, before?.from ?? 0, before?.estimate);
    }
    return this.#modelTokens.tokens;
  }

  /** The totals read so far: a view extending this one starts from them. */
  tokensBefore(): TokensBefore | undefined {
    const factTokens = this.#factTokens;
    const modelTokens = this.#modelTokens;
    if (factTokens === undefined && modelTokens === undefined) return undefined;
    return {
      facts: factTokens === undefined ? undefined : { total: factTokens, from: this.#facts.length },
      context: modelTokens === undefined ? undefined : { estimate: modelTokens, from: this.messages.length },
    };
  }
}

/**
 * The model view kept up to date as the session changes, cheaply when the projection only grew (see
 * SessionProjector): the previous view's walk goes on over the new context messages, and the earlier
 * facts keep their messages and fates. Otherwise, or when the policies changed, or when the walk ended
 * holding messages back for results that may still come, the view is built in full. Either way the
 * result equals `projectModelView`.
 */
export class ModelViewProjector {
  #projection: SessionProjection | undefined;
  #settings: ContextSettings | undefined;
  #view: ProjectedView | undefined;
  #walk: ModelMessageWalk | undefined;

  project(projection: SessionProjection, settings: ContextSettings): ModelView {
    const previous = this.#view;
    if (previous && projection === this.#projection && settings === this.#settings) return previous;
    const extension = extensionOf(projection);
    const walk = this.#walk;
    const built =
      previous &&
      walk?.resumable &&
      extension &&
      extension.from === this.#projection &&
      settings.policies === this.#settings?.policies
        ? extendView(previous, walk, projection, extension.factsFrom, extension.contextFrom)
        : buildView(projection, settings);
    this.#projection = projection;
    this.#settings = settings;
    this.#view = built.view;
    this.#walk = built.walk;
    return built.view;
  }
}

function extendView(
  previous: ProjectedView,
  walk: ModelMessageWalk,
  projection: SessionProjection,
  factsFrom: number,
  contextFrom: number,
): { view: ProjectedView; walk: ModelMessageWalk } {
  const targetOf = new Int32Array(projection.facts.length).fill(-1);
  targetOf.set(previous.targetOf);
  const collect = new Collector(
    projection,
    // Sized for every fact at once, as a full build's are: a copy that grows as it is written is copied again.
    previous.fates.concat(new Array<Fate>(Math.max(0, projection.facts.length - previous.fates.length))),
    previous.edits,
    targetOf,
    previous.messages,
    factsFrom,
  );
  walk.redirect(collect.emit, { onFate: collect.onFate });
  const { context } = projection;
  for (let index = contextFrom; index < context.length; index++)
    walk.step(context[index] as AgentMessage, index);
  walk.finish();
  return { view: collect.view(previous.counts, previous.sourceOf, previous.tokensBefore()), walk };
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
  if (counts.carried) parts.push(`${counts.carried} carried by a compaction`);
  if (counts.edited) parts.push(`${counts.edited} edited`);
  if (counts.omitted) parts.push(`${counts.omitted} omitted`);
  if (counts.failedAttempt) parts.push(`${countOf(counts.failedAttempt, "failed attempt")} left out`);
  if (counts.unknown) parts.push(`${counts.unknown} of unknown type`);
  if (counts.converted) parts.push(`${counts.converted} converted`);
  const head = `${countOf(facts, "fact")} → ${countOf(view.messages.length, "model message")}`;
  return parts.length > 0 ? `${head}: ${parts.join(", ")}` : head;
}
