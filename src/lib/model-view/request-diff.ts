import type { Message } from "@earendil-works/pi-ai";

/** How the model view differs from the last request: what the model has not seen yet, or saw otherwise. */
export type DiffEntry =
  | { kind: "added"; after: Message; afterIndex: number }
  | { kind: "removed"; before: Message; beforeIndex: number }
  | { kind: "changed"; before: Message; after: Message; beforeIndex: number; afterIndex: number };

export interface RequestDiff {
  unchanged: number;
  /**
   * How many leading messages the two lists share. Past this position the requests diverge, and a
   * provider's prompt cache (which matches a prefix) no longer applies.
   */
  commonPrefix: number;
  entries: DiffEntry[];
}

const keys = new WeakMap<object, string>();

function keyOf(message: Message): string {
  let key = keys.get(message);
  if (key === undefined) {
    key = JSON.stringify(message);
    keys.set(message, key);
  }
  return key;
}

function same(a: Message, b: Message): boolean {
  return a === b || keyOf(a) === keyOf(b);
}

/**
 * Compare two message lists. Unchanged prefix and suffix are skipped cheaply (messages are usually the
 * very same objects); the part between is matched by content, then by role and timestamp to tell a
 * changed message (an approval decided) from one added or removed (a policy switched).
 */
export function diffRequests(before: readonly Message[], after: readonly Message[]): RequestDiff {
  let prefix = 0;
  while (
    prefix < before.length &&
    prefix < after.length &&
    same(before[prefix] as Message, after[prefix] as Message)
  )
    prefix++;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    same(before[before.length - 1 - suffix] as Message, after[after.length - 1 - suffix] as Message)
  ) {
    suffix++;
  }

  const unmatched = new Map<string, number[]>();
  for (let index = prefix; index < before.length - suffix; index++) {
    const key = keyOf(before[index] as Message);
    const list = unmatched.get(key) ?? [];
    list.push(index);
    unmatched.set(key, list);
  }

  let unchanged = prefix + suffix;
  const added: number[] = [];
  for (let index = prefix; index < after.length - suffix; index++) {
    const list = unmatched.get(keyOf(after[index] as Message));
    if (list && list.length > 0) {
      list.shift();
      unchanged++;
    } else {
      added.push(index);
    }
  }
  const removed = [...unmatched.values()].flat().sort((a, b) => a - b);

  const entries: DiffEntry[] = [];
  const removedLeft = new Set(removed);
  for (const afterIndex of added) {
    const message = after[afterIndex] as Message;
    const partner = removed.find(
      (beforeIndex) =>
        removedLeft.has(beforeIndex) &&
        (before[beforeIndex] as Message).role === message.role &&
        (before[beforeIndex] as Message).timestamp === message.timestamp,
    );
    if (partner !== undefined) {
      removedLeft.delete(partner);
      entries.push({
        kind: "changed",
        before: before[partner] as Message,
        after: message,
        beforeIndex: partner,
        afterIndex,
      });
    } else {
      entries.push({ kind: "added", after: message, afterIndex });
    }
  }
  for (const beforeIndex of removedLeft)
    entries.push({ kind: "removed", before: before[beforeIndex] as Message, beforeIndex });
  return { unchanged, commonPrefix: prefix, entries };
}

/** How many entries of each kind a diff holds, counted in one pass for the summary line. */
export function countEntries(entries: readonly DiffEntry[]): Record<DiffEntry["kind"], number> {
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const entry of entries) counts[entry.kind]++;
  return counts;
}
