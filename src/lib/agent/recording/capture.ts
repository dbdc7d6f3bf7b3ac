import type { Captured } from "../../storage/records.ts";

/**
 * Limits on what is kept of each model call. A request carries the whole context, so a long session sends
 * the same facts again and again: each part of a call (its messages, its payload) is kept up to a size,
 * and each session up to a budget, past which calls keep their summary only. Every cut is visible.
 */
export const CALL_PART_LIMIT_BYTES = 2 * 1024 * 1024;
export const SESSION_CALL_BUDGET_BYTES = 64 * 1024 * 1024;

/** Keep `value` whole, cut at `limit` bytes of its JSON, or not at all when the session's budget is used up. */
export function capture<T>(value: T, limit: number, budgetLeft: number): Captured<T> {
  let json: string;
  try {
    json = JSON.stringify(value) ?? "null";
  } catch (error) {
    return {
      kept: "none",
      bytes: 0,
      reason: `it could not be written as JSON (${(error as Error).message})`,
    };
  }
  const bytes = json.length;
  if (budgetLeft <= 0)
    return {
      kept: "none",
      bytes,
      reason: `this session's budget of ${formatMegabytes(SESSION_CALL_BUDGET_BYTES)} for recorded calls is used up`,
    };
  const room = Math.min(limit, budgetLeft);
  if (bytes <= room) return { kept: "all", value, bytes };
  return { kept: "truncated", text: json.slice(0, room), bytes };
}

/** How long one slice of `captureList` may hold the main thread before it gives the page a turn. */
const SLICE_MS = 8;

export interface SliceClock {
  now: () => number;
  /** Let the page run (render a frame, take input) before the next slice. */
  pause: () => Promise<void>;
}

const PAGE_CLOCK: SliceClock = {
  now: () => performance.now(),
  pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
};

/**
 * `capture` for a list, item by item, in slices that leave the page free between them: the context of a
 * session of 100,000 facts is tens of megabytes of JSON, which one `JSON.stringify` would turn into a task
 * of hundreds of milliseconds and a string as large, to keep its first 2 MB. The result is the same as
 * `capture(items, …)`: the list's JSON is `[`, the items' JSON joined by commas, `]`, so its length is
 * counted exactly and only its first `room` characters are ever held.
 */
export async function captureList<T>(
  items: readonly T[],
  limit: number,
  budgetLeft: number,
  clock: SliceClock = PAGE_CLOCK,
): Promise<Captured<T[]>> {
  const room = Math.max(0, Math.min(limit, budgetLeft));
  const kept: string[] = ["["];
  let keptLength = 1;
  let bytes = 1;
  let sliceStarted = clock.now();
  for (let index = 0; index < items.length; index++) {
    if (clock.now() - sliceStarted > SLICE_MS) {
      await clock.pause();
      sliceStarted = clock.now();
    }
    let json: string;
    try {
      // As JSON.stringify writes a list: an item with no JSON (undefined, a function) is null.
      json = (index > 0 ? "," : "") + (JSON.stringify(items[index]) ?? "null");
    } catch (error) {
      return {
        kept: "none",
        bytes: 0,
        reason: `it could not be written as JSON (${(error as Error).message})`,
      };
    }
    bytes += json.length;
    if (keptLength <= room) {
      kept.push(json);
      keptLength += json.length;
    }
  }
  bytes += 1;
  if (budgetLeft <= 0)
    return {
      kept: "none",
      bytes,
      reason: `this session's budget of ${formatMegabytes(SESSION_CALL_BUDGET_BYTES)} for recorded calls is used up`,
    };
  if (bytes <= room) return { kept: "all", value: [...items], bytes };
  return { kept: "truncated", text: `${kept.join("")}]`.slice(0, room), bytes };
}

export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** "truncated at 2,097,152 bytes of 3,410,000" — the marker shown wherever a cut part is. */
export function truncationNote(part: Captured<unknown>): string | undefined {
  if (part.kept === "truncated")
    return `truncated at ${part.text.length.toLocaleString("en-US")} bytes of ${part.bytes.toLocaleString("en-US")}`;
  if (part.kept === "none") return `not kept: ${part.reason}`;
  return undefined;
}
