import { positiveInt } from "../../shared/positive-int.ts";

/**
 * How deeply a value may nest when it comes from outside (an imported file, pasted JSON). Browsers store and
 * copy values recursively: structured clone, IndexedDB and `JSON.stringify` overflow the stack somewhere past
 * a few thousand levels, and an overflow while saving looks like a full disk. No real message comes near
 * 200 levels, so values deeper than that are refused where they enter, with the place named. A build may
 * change it (`VITE_MAX_NESTING_DEPTH`), up to 1,000 levels, well short of any browser's stack.
 */
export const MAX_NESTING_DEPTH = Math.min(1_000, positiveInt(import.meta.env?.VITE_MAX_NESTING_DEPTH) ?? 200);

/**
 * Whether `value` nests more than `limit` levels of objects and arrays (`{}` is one level, `{"a": []}` two).
 * Walks with its own stack, so it cannot overflow however deep the value is, and stops at the first path
 * that goes too deep.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== "object" || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > limit) return true;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth });
    }
  }
  return false;
}

/** What is said of a value that nests too deeply, after "nests" or "nest". */
export function tooDeepMessage(limit = MAX_NESTING_DEPTH): string {
  return `more than ${limit} levels deep; the playground accepts values up to ${limit} levels`;
}
