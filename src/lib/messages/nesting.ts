import { MAX_NESTING_DEPTH } from "../ui/nesting-limit.ts";

export { MAX_NESTING_DEPTH };

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
