import type { Message, Usage } from "@earendil-works/pi-ai";
import { contextTokens } from "../model-view/view-tokens.ts";
import { measureParts, type PartVisitor, type TokenPart } from "../model-view/token-parts.ts";
import { apportion } from "./apportion.ts";
import { CATEGORIES, userTextCategory, type Category } from "./categories.ts";

/**
 * The composition of one request: how many of its input tokens each category takes, and which facts put
 * them there. Each message is measured in characters, the way pi-ai's estimator measures it
 * (`measureParts` of the page's one token estimate); the request's total is either the provider's own count
 * (input, cache reads and cache writes of the call's usage) or pi-ai's `estimateContextTokens`, and the
 * characters only say how that total is split. Categories, and the facts within each, are whole numbers
 * adding up to the total.
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
      /** Measured by another tool and imported with the call (an LHAR file's composition), shown as it was. */
      kind: "recorded";
      format: string;
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

/** pi-ai's estimate of a request that reported no usage: anchored on the last reply whose usage applies. */
function anchoredEstimate(messages: readonly Message[]): Extract<TokenBasis, { kind: "estimate" }> {
  const estimate = contextTokens(messages);
  return {
    kind: "estimate",
    usageTokens: estimate.usageTokens,
    trailingTokens: estimate.trailingTokens,
    anchorIndex: estimate.lastUsageIndex,
    estimate: estimate.tokens,
  };
}

/**
 * The parts of a request's messages, in flat arrays (composing 10,000 messages allocates next to
 * nothing): each part's category, message and characters, and how many blocks it stands for. Blocks of
 * one category in a row in one message are one part (a reply's two text blocks are one share).
 */
class Weigher implements PartVisitor {
  categories: Uint8Array;
  messages: Int32Array;
  chars: Float64Array;
  blocks: Int32Array;
  count = 0;
  /** The message being weighed, and the category its text counts in. */
  #message = 0;
  #textCategory = 0;

  constructor(capacity: number) {
    this.categories = new Uint8Array(capacity);
    this.messages = new Int32Array(capacity);
    this.chars = new Float64Array(capacity);
    this.blocks = new Int32Array(capacity);
  }

  /** Weigh one message; returns pi-ai's estimate of it. */
  weigh(index: number, message: Message, sourceRole: string | undefined): number {
    this.#message = index;
    this.#textCategory =
      message.role === "assistant"
        ? CATEGORY_INDEX.assistantText
        : CATEGORY_INDEX[message.role === "toolResult" ? "toolResults" : userTextCategory(sourceRole)];
    return measureParts(message, this);
  }

  part(kind: TokenPart, chars: number, blocks: number): void {
    this.#add(this.#message, kind === "text" ? this.#textCategory : PART_CATEGORY[kind], chars, blocks);
  }

  #add(message: number, category: number, chars: number, blocks: number): void {
    const last = this.count - 1;
    if (last >= 0 && this.messages[last] === message && this.categories[last] === category) {
      this.chars[last] = (this.chars[last] ?? 0) + chars;
      this.blocks[last] = (this.blocks[last] ?? 0) + blocks;
      return;
    }
    if (this.count === this.categories.length) this.#grow();
    this.categories[this.count] = category;
    this.messages[this.count] = message;
    this.chars[this.count] = chars;
    this.blocks[this.count] = blocks;
    this.count++;
  }

  #grow(): void {
    const size = Math.max(16, this.categories.length * 2);
    const grow = <T extends Uint8Array | Int32Array | Float64Array>(array: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(array);
      return next;
    };
    this.categories = grow(this.categories, (n) => new Uint8Array(n));
    this.messages = grow(this.messages, (n) => new Int32Array(n));
    this.chars = grow(this.chars, (n) => new Float64Array(n));
    this.blocks = grow(this.blocks, (n) => new Int32Array(n));
  }
}

const CATEGORY_INDEX = Object.fromEntries(CATEGORIES.map((category, index) => [category, index])) as Record<
  Category,
  number
>;

const PART_CATEGORY: Record<Exclude<TokenPart, "text">, number> = {
  system: CATEGORY_INDEX.system,
  tools: CATEGORY_INDEX.tools,
  image: CATEGORY_INDEX.images,
  thinking: CATEGORY_INDEX.thinking,
  toolCall: CATEGORY_INDEX.toolCalls,
};

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
  } else basis = anchoredEstimate(messages);
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
