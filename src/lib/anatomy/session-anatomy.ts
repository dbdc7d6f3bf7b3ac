import { callTokens } from "../agent/recording/call-tokens.ts";
import type { SessionEntry } from "../messages/entries.ts";
import type { CallRecord } from "../storage/records.ts";
import { findCacheBreak, type CacheBreak } from "./cache-break.ts";
import type { CallBody } from "./call-body.ts";
import { changesBetweenCalls, entryChange, MARKED_ENTRIES, type Change } from "./call-changes.ts";
import type { Category } from "./categories.ts";
import { compose, inputTotal, type Composition, type TokenBasis } from "./composition.ts";
import { EntryIndex } from "./entry-index.ts";
import { recordedComposition } from "./recorded-composition.ts";

/**
 * Each recorded call of a session, read for the anatomy: its composition (from the messages it carried
 * and the usage it returned), its context size against the model's window, its cost, and what changed
 * since the call before it as far as the records show (entries added between the two, the model, the
 * thinking level, the system prompt and tools, a policy that hid or showed a fact, a move to another
 * branch; see call-changes.ts), with the point where the prompt-cache prefix broke (cache-break.ts).
 */

/** The session around its calls: every entry (all branches), where it was forked from. */
export interface SessionContext {
  /** Read again whenever a call is added: a live session keeps adding entries. */
  entries: () => readonly SessionEntry[];
  forkedFrom?: { title: string };
  /** The model's context window; undefined when unknown. */
  windowOf: (provider: string, modelId: string) => number | undefined;
}

/** A composition without its per-message detail: what is kept for every call of a long session. */
export interface CallTotals {
  total: number;
  basis: TokenBasis;
  categories: { category: Category; tokens: number; share: number; blocks: number }[];
  byEntry: Map<string | null, number>;
}

export interface CallAnatomy {
  seq: number;
  call: CallRecord;
  /** Known when the call's messages were kept. */
  totals: CallTotals | undefined;
  /** Why the composition is not known. */
  unknown: string | undefined;
  /** Context size: the provider's input count, else pi-ai's estimate, else unknown. */
  contextTokens: number | undefined;
  basis: "usage" | "estimate" | "unknown";
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
  output: number;
  window: number | undefined;
  cost: number;
  cumulativeCost: number;
  changes: Change[];
  cacheBreak: CacheBreak | undefined;
}

/** The context window an imported call's file gave, when it gave one. */
export function recordedWindow(call: CallRecord): number | undefined {
  const window = call.recorded?.window;
  return window !== undefined && window > 0 ? window : undefined;
}

export function totalsOf(composition: Composition): CallTotals {
  return {
    total: composition.total,
    basis: composition.basis,
    categories: composition.categories.map(({ category, tokens, share, blocks }) => ({
      category,
      tokens,
      share,
      blocks,
    })),
    byEntry: composition.byEntry,
  };
}

/**
 * The anatomy of every call, in order. `bodies[i]` is what is known of `calls[i]`'s body. Calls are
 * read one after the other, each against the one before, so only two bodies are needed at a time.
 */
export class CallAnalyzer {
  readonly #context: SessionContext;
  readonly #index: EntryIndex;
  /** Entries that mark the timeline, by time (made again when the entries change). */
  #marked: { at: number; entry: SessionEntry }[] = [];
  #markedFrom: readonly SessionEntry[] | undefined;
  #previous: { call: CallRecord; body: CallBody; anatomy: CallAnatomy } | undefined;
  #cumulativeCost = 0;
  #markedUpTo = 0;

  constructor(context: SessionContext) {
    this.#context = context;
    this.#index = new EntryIndex(context.entries);
  }

  /** The marking entries; those up to the last call added stay counted as shown. */
  #markers(): { at: number; entry: SessionEntry }[] {
    const entries = this.#index.entries;
    if (entries !== this.#markedFrom) {
      this.#markedFrom = entries;
      const shown = new Set(this.#marked.slice(0, this.#markedUpTo).map((item) => item.entry.id));
      this.#marked = entries
        .filter((entry) => MARKED_ENTRIES.has(entry.type))
        .map((entry) => ({ at: Date.parse(entry.timestamp), entry }))
        .filter((item) => Number.isFinite(item.at))
        .sort((a, b) => a.at - b.at);
      // Keep what was shown before at the front, so a marker is never shown twice.
      this.#marked.sort((a, b) => Number(shown.has(b.entry.id)) - Number(shown.has(a.entry.id)));
      this.#markedUpTo = shown.size;
    }
    return this.#marked;
  }

  get index(): EntryIndex {
    return this.#index;
  }

  /** Changes recorded after the last call (they shape the next one). */
  pendingChanges(): Change[] {
    return this.#markers()
      .slice(this.#markedUpTo)
      .map((item) => entryChange(item.entry, this.#index))
      .filter((change): change is Change => change !== undefined);
  }

  add(call: CallRecord, body: CallBody): CallAnatomy {
    const index = this.#index;
    const previous = this.#previous;
    const usage = call.outcome.usage;
    const providerInput = inputTotal(usage);
    // A call imported with another tool's measures is shown as that tool measured it.
    let composition: Composition | undefined = recordedComposition(call);
    if (!call.recorded && body.kind === "kept")
      composition = compose(body.messages, index.sources(body.sources), usage);

    const changes: Change[] = [];
    if (!previous && this.#context.forkedFrom)
      changes.push({ kind: "fork", text: `forked from “${this.#context.forkedFrom.title}”` });
    const marked = this.#markers();
    while (this.#markedUpTo < marked.length) {
      const item = marked[this.#markedUpTo];
      if (!item || item.at > call.startedAt) break;
      const change = entryChange(item.entry, index);
      if (change) changes.push(change);
      this.#markedUpTo++;
    }
    if (previous) changes.push(...changesBetweenCalls(previous, call, body, index));

    const cacheBreak =
      previous?.body.kind === "kept" && body.kind === "kept" && composition
        ? findCacheBreak(
            { call: previous.call, body: previous.body },
            call,
            body,
            composition,
            changes,
            index,
          )
        : undefined;

    const cost = Number.isFinite(usage.cost?.total) ? usage.cost.total : 0;
    this.#cumulativeCost += cost;
    const contextTokens = providerInput > 0 ? providerInput : composition?.total;
    // The same numbers the calls view and the session's usage show, an estimated output included.
    const counts = callTokens(call.outcome);
    const window = this.#context.windowOf(call.provider, call.modelId) ?? recordedWindow(call);
    const anatomy: CallAnatomy = {
      seq: call.seq,
      call,
      totals: composition ? totalsOf(composition) : undefined,
      unknown: body.kind === "unknown" ? body.reason : undefined,
      contextTokens,
      basis: providerInput > 0 ? "usage" : composition ? "estimate" : "unknown",
      cacheRead: counts.cacheRead || 0,
      cacheWrite: counts.cacheWrite || 0,
      uncached: counts.input || 0,
      output: counts.output || 0,
      window,
      cost,
      cumulativeCost: this.#cumulativeCost,
      changes,
      cacheBreak,
    };
    this.#previous = { call, body, anatomy };
    return anatomy;
  }
}
