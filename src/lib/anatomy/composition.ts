import type { Message, Usage } from "@earendil-works/pi-ai";
import { calculateContextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { apportion } from "./apportion.ts";
import { CATEGORIES, type Category } from "./categories.ts";
import { Weigher } from "./message-weight.ts";

/**
 * The composition of one request: how many of its input tokens each category takes, and which facts put
 * them there. Each message is measured in characters, the way pi-ai's estimator measures it (an image
 * as 4,800 characters); the request's total is either the provider's own count (input, cache reads and
 * cache writes of the call's usage) or pi-ai's `estimateContextTokens`, and the characters only say how
 * that total is split. Categories, and the facts within each, are whole numbers adding up to the total.
 */

/** Where a message sent came from: the entry (fact) behind it and that fact's role. */
export interface MessageSource {
  entryId: string | null;
  /** The role of the fact, which tells a converted notification from a user's own message. */
  role: string | undefined;
}

export type TokenBasis =
  | {
      kind: "usage";
      /** Input not served from a cache, read from one, written to one (the call's usage). */
      input: number;
      cacheRead: number;
      cacheWrite: number;
      /** pi-ai's estimate of the same messages, for comparison. */
      estimate: number;
    }
  | {
      kind: "estimate";
      /** pi-ai anchors on the last reply's real usage when the messages hold one. */
      usageTokens: number;
      trailingTokens: number;
      anchorIndex: number | null;
      estimate: number;
    };

export interface Contributor {
  messageIndex: number;
  entryId: string | null;
  tokens: number;
}

export interface CategoryTotal {
  category: Category;
  tokens: number;
  /** Share of the request's total, 0 to 1. */
  share: number;
  /** Content blocks of this category (a tool definition, a text part, an image…). */
  blocks: number;
  /** The messages that contribute, largest first. */
  contributors: Contributor[];
}

export interface Composition {
  total: number;
  basis: TokenBasis;
  /** Largest first; categories with nothing are left out. */
  categories: CategoryTotal[];
  /** Tokens of each message, adding up to the total. */
  messageTokens: number[];
  /** Tokens per entry id (messages without a fact under `null`). */
  byEntry: Map<string | null, number>;
  messageCount: number;
}

/**
 * Split `total` between parts in proportion to their weights, rounding the running sum: whole numbers
 * adding up to `total` exactly, each within one of its exact share, in one pass (no sorting, so it
 * stays linear for a category with thousands of messages).
 */
function roundRunning(
  parts: readonly number[],
  weightOf: Float64Array,
  total: number,
  out: Float64Array,
): void {
  let sum = 0;
  for (const part of parts) sum += weightOf[part] ?? 0;
  let running = 0;
  let given = 0;
  for (const part of parts) {
    running += weightOf[part] ?? 0;
    const upTo = sum > 0 ? Math.round((running * total) / sum) : 0;
    out[part] = upTo - given;
    given = upTo;
  }
}

/** Input tokens the provider counted: uncached, read from a cache, written to one. Zero when unknown. */
export function inputTotal(usage: Usage | undefined): number {
  if (!usage) return 0;
  const total = (usage.input || 0) + (usage.cacheRead || 0) + (usage.cacheWrite || 0);
  return Number.isFinite(total) ? total : 0;
}

/**
 * pi-ai's `estimateContextTokens`, from per-message estimates already made: the last reply whose usage
 * applies to the prefix (not aborted or failed, not followed by an older-stamped message inserted
 * before it) counts as its usage, and the messages after it as estimated.
 */
function anchoredEstimate(
  messages: readonly Message[],
  estimates: Float64Array,
): Extract<TokenBasis, { kind: "estimate" }> {
  let latestPrefix = Number.NEGATIVE_INFINITY;
  let anchorIndex: number | null = null;
  let usageTokens = 0;
  messages.forEach((message, index) => {
    if (message.role === "assistant") {
      const applies = message.timestamp >= latestPrefix;
      const tokens = message.usage ? calculateContextTokens(message.usage) : 0;
      if (applies && message.stopReason !== "aborted" && message.stopReason !== "error" && tokens > 0) {
        anchorIndex = index;
        usageTokens = tokens;
      }
    }
    latestPrefix = Math.max(latestPrefix, message.timestamp);
  });
  let trailingTokens = 0;
  for (let index = anchorIndex === null ? 0 : anchorIndex + 1; index < messages.length; index++)
    trailingTokens += estimates[index] ?? 0;
  return {
    kind: "estimate",
    usageTokens,
    trailingTokens,
    anchorIndex,
    estimate: usageTokens + trailingTokens,
  };
}

/**
 * Compose a request. With `usage` (a call that returned it) the total is the provider's input count;
 * without, pi-ai's estimate. `sources[i]` names the fact behind `messages[i]`.
 */
export function compose(
  messages: readonly Message[],
  sources: readonly MessageSource[],
  usage?: Usage,
): Composition {
  const weigher = new Weigher(messages.length * 2 + 8);
  const estimates = new Float64Array(messages.length);
  for (let index = 0; index < messages.length; index++)
    estimates[index] = weigher.weigh(index, messages[index] as Message, sources[index]?.role);

  const providerTotal = inputTotal(usage);
  let basis: TokenBasis;
  if (providerTotal > 0) {
    let estimate = 0;
    for (const value of estimates) estimate += value;
    basis = {
      kind: "usage",
      input: usage?.input ?? 0,
      cacheRead: usage?.cacheRead ?? 0,
      cacheWrite: usage?.cacheWrite ?? 0,
      estimate,
    };
  } else basis = anchoredEstimate(messages, estimates);
  const total = basis.kind === "usage" ? providerTotal : basis.estimate;

  // Characters and blocks per category, then the total split between the categories.
  const count = weigher.count;
  const categoryChars = new Float64Array(CATEGORIES.length);
  const categoryBlocks = new Int32Array(CATEGORIES.length);
  const membersOf: number[][] = CATEGORIES.map(() => []);
  for (let part = 0; part < count; part++) {
    const category = weigher.categories[part] ?? 0;
    const chars = weigher.chars[part] ?? 0;
    categoryChars[category] = (categoryChars[category] ?? 0) + chars;
    categoryBlocks[category] = (categoryBlocks[category] ?? 0) + (weigher.blocks[part] ?? 0);
    if (chars > 0) membersOf[category]?.push(part);
  }
  const present: number[] = [];
  categoryChars.forEach((chars, category) => {
    if (chars > 0) present.push(category);
  });
  const messageTokens = new Array<number>(messages.length).fill(0);
  const categories: CategoryTotal[] = [];
  if (present.length === 0) {
    if (total > 0)
      categories.push({ category: "unattributed", tokens: total, share: 1, blocks: 0, contributors: [] });
  } else {
    const split = apportion(
      present.map((category) => categoryChars[category] ?? 0),
      total,
    );
    const partTokens = new Float64Array(count);
    present.forEach((category, position) => {
      const tokens = split[position] ?? 0;
      const members = membersOf[category] ?? [];
      roundRunning(members, weigher.chars, tokens, partTokens);
      for (const part of members) {
        const message = weigher.messages[part] ?? 0;
        messageTokens[message] = (messageTokens[message] ?? 0) + (partTokens[part] ?? 0);
      }
      let listed: Contributor[] | undefined;
      categories.push({
        category: CATEGORIES[category] as Category,
        tokens,
        share: total > 0 ? tokens / total : 0,
        blocks: categoryBlocks[category] ?? 0,
        // Listed when someone asks (a category clicked), largest first.
        get contributors(): Contributor[] {
          listed ??= members
            .map((part) => {
              const messageIndex = weigher.messages[part] ?? 0;
              return {
                messageIndex,
                entryId: sources[messageIndex]?.entryId ?? null,
                tokens: partTokens[part] ?? 0,
              };
            })
            .sort((a, b) => b.tokens - a.tokens || a.messageIndex - b.messageIndex);
          return listed;
        },
      });
    });
    categories.sort((a, b) => b.tokens - a.tokens);
  }
  let byEntry: Map<string | null, number> | undefined;
  return {
    total,
    basis,
    categories,
    messageTokens,
    // Summed when asked for (re-billing reads it; the live view does not).
    get byEntry(): Map<string | null, number> {
      if (!byEntry) {
        byEntry = new Map();
        for (let index = 0; index < messageTokens.length; index++) {
          const entryId = sources[index]?.entryId ?? null;
          byEntry.set(entryId, (byEntry.get(entryId) ?? 0) + (messageTokens[index] ?? 0));
        }
      }
      return byEntry;
    },
    messageCount: messages.length,
  };
}
