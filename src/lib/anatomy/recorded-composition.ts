import type { LharCategory } from "../messages/kinds/kind.ts";
import type { CallRecord } from "../storage/records.ts";
import { CATEGORIES, LHAR_CATEGORY, type Category } from "./categories.ts";
import type { Composition } from "./composition.ts";

/**
 * The composition of a call imported with its measures (an LHAR file's `context_lens.composition`): the
 * file's numbers as they are, each of Context Lens's categories shown as the anatomy's category that exports
 * to it (system_injections as the first converted fact type; cache markers, which the playground does not
 * count apart, as not attributable). Nothing is re-estimated: the messages are not the session's facts.
 */

/** The anatomy category each LHAR category is shown as: the first that exports to it. */
const CATEGORY_OF_LHAR = new Map<LharCategory, Category>();
for (const category of CATEGORIES) {
  const lhar = LHAR_CATEGORY[category];
  if (!CATEGORY_OF_LHAR.has(lhar)) CATEGORY_OF_LHAR.set(lhar, category);
}

export function categoryOfLhar(category: LharCategory): Category {
  return CATEGORY_OF_LHAR.get(category) ?? "unattributed";
}

export function recordedComposition(call: CallRecord): Composition | undefined {
  const recorded = call.recorded;
  if (!recorded) return undefined;
  const merged = new Map<Category, { tokens: number; blocks: number }>();
  let total = 0;
  for (const entry of recorded.composition) {
    const category = categoryOfLhar(entry.category);
    const sum = merged.get(category) ?? { tokens: 0, blocks: 0 };
    sum.tokens += entry.tokens;
    sum.blocks += entry.count;
    merged.set(category, sum);
    total += entry.tokens;
  }
  if (!(total > 0)) return undefined;
  return {
    total,
    basis: { kind: "recorded", format: recorded.format.toUpperCase() },
    categories: [...merged]
      .map(([category, { tokens, blocks }]) => ({
        category,
        tokens,
        share: tokens / total,
        blocks,
        contributors: [],
      }))
      .sort((a, b) => b.tokens - a.tokens),
    messageTokens: [],
    byEntry: new Map(),
    messageCount: call.messageCount,
  };
}
