import type { Message, Usage } from "@earendil-works/pi-ai";
import { estimateContextTokens, estimateMessageTokens } from "@earendil-works/pi-ai/utils/estimate";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import { apportion } from "./apportion.ts";
import { CATEGORIES, userTextCategory, type Category } from "./categories.ts";

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

interface Weighed {
  category: Category;
  chars: number;
  blocks: number;
}

const IMAGE_CHARS = 4_800;

function toolsChars(tools: unknown): number {
  if (!Array.isArray(tools) || tools.length === 0) return 0;
  try {
    return JSON.stringify(tools).length;
  } catch {
    return 0;
  }
}

function argumentsChars(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "undefined").length;
  } catch {
    return 0;
  }
}

/** The categories of one message, in characters. */
export function weighMessage(message: Message, sourceRole: string | undefined): Weighed[] {
  const out: Weighed[] = [];
  const add = (category: Category, chars: number) => {
    const last = out.find((item) => item.category === category);
    if (last) {
      last.chars += chars;
      last.blocks++;
    } else out.push({ category, chars, blocks: 1 });
  };
  switch (message.role) {
    case "system": {
      add("system", getSystemMessageText(message).length);
      const tools = (message.toolsAdded?.length ?? 0) + (message.toolsRemoved?.length ?? 0);
      if (tools > 0) {
        add("tools", toolsChars(message.toolsAdded) + toolsChars(message.toolsRemoved));
        const entry = out.find((item) => item.category === "tools");
        if (entry) entry.blocks = tools;
      }
      break;
    }
    case "user":
    case "toolResult": {
      const textCategory = message.role === "toolResult" ? "toolResults" : userTextCategory(sourceRole);
      const content = message.content as Message["content"] | undefined;
      if (typeof content === "string") add(textCategory, content.length);
      else if (Array.isArray(content))
        for (const part of content) {
          if (part.type === "image") add("images", IMAGE_CHARS);
          else if (part.type === "text") add(textCategory, part.text.length);
        }
      break;
    }
    case "assistant":
      for (const part of message.content) {
        if (part.type === "text") add("assistantText", part.text.length);
        else if (part.type === "thinking") add("thinking", part.thinking.length);
        else if (part.type === "toolCall")
          add("toolCalls", part.name.length + argumentsChars(part.arguments));
      }
      break;
    default:
      break;
  }
  return out;
}

const estimates = new WeakMap<object, number>();

/** pi-ai's estimate of one message, cached per message object (messages sent are never changed). */
function estimateOf(message: Message): number {
  let tokens = estimates.get(message);
  if (tokens === undefined) {
    try {
      tokens = estimateMessageTokens(message);
    } catch {
      tokens = 0;
    }
    estimates.set(message, tokens);
  }
  return tokens;
}

/** Input tokens the provider counted: uncached, read from a cache, written to one. Zero when unknown. */
export function inputTotal(usage: Usage | undefined): number {
  if (!usage) return 0;
  const total = (usage.input || 0) + (usage.cacheRead || 0) + (usage.cacheWrite || 0);
  return Number.isFinite(total) ? total : 0;
}

/** pi-ai's estimate of a request: the last reply's usage plus an estimate of what follows it. */
export function estimateRequest(messages: readonly Message[]): Extract<TokenBasis, { kind: "estimate" }> {
  let tokens = 0;
  let usageTokens = 0;
  let trailingTokens = 0;
  let anchorIndex: number | null = null;
  try {
    const estimate = estimateContextTokens(messages);
    ({ tokens, usageTokens, trailingTokens } = estimate);
    anchorIndex = estimate.lastUsageIndex;
  } catch {
    tokens = messages.reduce((sum, message) => sum + estimateOf(message), 0);
    trailingTokens = tokens;
  }
  return { kind: "estimate", usageTokens, trailingTokens, anchorIndex, estimate: tokens };
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
  const weighed: Weighed[][] = messages.map((message, index) => weighMessage(message, sources[index]?.role));
  const providerTotal = inputTotal(usage);
  let basis: TokenBasis;
  if (providerTotal > 0) {
    let estimate = 0;
    for (const message of messages) estimate += estimateOf(message);
    basis = {
      kind: "usage",
      input: usage?.input ?? 0,
      cacheRead: usage?.cacheRead ?? 0,
      cacheWrite: usage?.cacheWrite ?? 0,
      estimate,
    };
  } else basis = estimateRequest(messages);
  const total = basis.kind === "usage" ? providerTotal : basis.estimate;

  // Characters and blocks per category, then the total split between the categories.
  const chars = new Map<Category, number>();
  const blocks = new Map<Category, number>();
  for (const parts of weighed)
    for (const part of parts) {
      chars.set(part.category, (chars.get(part.category) ?? 0) + part.chars);
      blocks.set(part.category, (blocks.get(part.category) ?? 0) + part.blocks);
    }
  const present = CATEGORIES.filter((category) => (chars.get(category) ?? 0) > 0);
  const messageTokens = new Array<number>(messages.length).fill(0);
  const categories: CategoryTotal[] = [];
  if (present.length === 0) {
    if (total > 0)
      categories.push({ category: "unattributed", tokens: total, share: 1, blocks: 0, contributors: [] });
  } else {
    const split = apportion(
      present.map((category) => chars.get(category) ?? 0),
      total,
    );
    present.forEach((category, position) => {
      const tokens = split[position] ?? 0;
      const members: { messageIndex: number; chars: number }[] = [];
      weighed.forEach((parts, messageIndex) => {
        for (const part of parts)
          if (part.category === category && part.chars > 0) members.push({ messageIndex, chars: part.chars });
      });
      const shares = apportion(
        members.map((member) => member.chars),
        tokens,
      );
      const contributors: Contributor[] = members.map((member, index) => {
        const memberTokens = shares[index] ?? 0;
        messageTokens[member.messageIndex] = (messageTokens[member.messageIndex] ?? 0) + memberTokens;
        return {
          messageIndex: member.messageIndex,
          entryId: sources[member.messageIndex]?.entryId ?? null,
          tokens: memberTokens,
        };
      });
      contributors.sort((a, b) => b.tokens - a.tokens || a.messageIndex - b.messageIndex);
      categories.push({
        category,
        tokens,
        share: total > 0 ? tokens / total : 0,
        blocks: blocks.get(category) ?? 0,
        contributors,
      });
    });
    categories.sort((a, b) => b.tokens - a.tokens);
  }
  const byEntry = new Map<string | null, number>();
  messageTokens.forEach((tokens, index) => {
    const entryId = sources[index]?.entryId ?? null;
    byEntry.set(entryId, (byEntry.get(entryId) ?? 0) + tokens);
  });
  return { total, basis, categories, messageTokens, byEntry, messageCount: messages.length };
}
