import type { CallAnatomy } from "./session-anatomy.ts";

/**
 * Re-billing per fact: a request carries the whole context, so a fact is paid for again at every call
 * that carries it. For each fact, how many calls carried it and the input tokens it took in them (its
 * share of each call's total, so the provider's count where the call returned one).
 */
export interface FactBill {
  /** The entry behind the fact; null for messages no fact produced. */
  entryId: string | null;
  calls: number;
  tokens: number;
  /** Tokens in the last call that carried it. */
  lastTokens: number;
  firstSeq: number;
  lastSeq: number;
}

export interface Rebilling {
  bills: FactBill[];
  /** Calls whose messages are known, and those left out because they are not. */
  counted: number;
  unknown: number;
}

export function rebill(calls: readonly CallAnatomy[]): Rebilling {
  const bills = new Map<string | null, FactBill>();
  let counted = 0;
  let unknown = 0;
  for (const call of calls) {
    if (!call.totals) {
      unknown++;
      continue;
    }
    counted++;
    for (const [entryId, tokens] of call.totals.byEntry) {
      const bill = bills.get(entryId);
      if (bill) {
        bill.calls++;
        bill.tokens += tokens;
        bill.lastTokens = tokens;
        bill.lastSeq = call.seq;
      } else
        bills.set(entryId, {
          entryId,
          calls: 1,
          tokens,
          lastTokens: tokens,
          firstSeq: call.seq,
          lastSeq: call.seq,
        });
    }
  }
  return { bills: sortBills([...bills.values()], "tokens", "descending"), counted, unknown };
}

export type BillKey = "tokens" | "calls" | "lastTokens" | "firstSeq";
export type Direction = "ascending" | "descending";

export function sortBills(bills: readonly FactBill[], key: BillKey, direction: Direction): FactBill[] {
  const sign = direction === "ascending" ? 1 : -1;
  return [...bills].sort(
    (a, b) => sign * (a[key] - b[key]) || b.tokens - a.tokens || a.firstSeq - b.firstSeq,
  );
}
