import type { CallRecord } from "../../storage/records.ts";

/**
 * How many of a session's last calls are read before the others: more than a list of calls shows at once
 * (a third of a tall window, 44 px a row) with its rows drawn beyond the edges, few enough to read in
 * a few milliseconds however many calls the session has.
 */
export const LATEST_CALLS = 50;

/**
 * A session's last calls at the end of a list as long as all its calls, the positions before them empty
 * (not read yet): the calls list opens on its end, at its full length, before the rest is read.
 */
export function placedAtEnd(
  latest: readonly CallRecord[],
  total: number,
): readonly (CallRecord | undefined)[] {
  const length = Math.max(total, latest.length);
  const placed = new Array<CallRecord | undefined>(length).fill(undefined);
  const start = length - latest.length;
  latest.forEach((call, offset) => (placed[start + offset] = call));
  return placed;
}

/**
 * All the calls, the ones already shown kept as the same objects (read in the same transaction, they
 * are equal): a row or the open call does not change under the reader when the rest arrives.
 */
export function keepingShown(
  all: readonly CallRecord[],
  shown: readonly (CallRecord | undefined)[],
): CallRecord[] {
  const bySeq = new Map<number, CallRecord>();
  for (const call of shown) if (call) bySeq.set(call.seq, call);
  return all.map((call) => bySeq.get(call.seq) ?? call);
}
