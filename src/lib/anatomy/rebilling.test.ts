import { describe, expect, it } from "vitest";
import { analyze, syntheticSession } from "./anatomy.test-support.ts";
import { readBody } from "./call-body.ts";
import { rebill } from "./rebilling.ts";

describe("re-billing per fact", () => {
  it("equals the table computed by hand", () => {
    const session = syntheticSession();
    const { bills, counted, unknown } = rebill(analyze(session));
    // Call 1: 600 tokens over 400 + 200 chars → system 400, user 200.
    // Call 2: 4,600 tokens over 400 + 200 + 11 + 3,989 = 4,600 chars → one token per char.
    // Call 3: 5,000 tokens over 5,200 chars, first by category: system, user text and assistant text
    //   400 chars each → 384.6, tool calls 11 → 10.6, tool results 3,989 → 3,835.6. Floors add up to
    //   4,997; the 3 left go to the largest remainders (.615 ×3): system 385, user text 385, assistant
    //   text 385, tool calls 10, tool results 3,835. User text's 385 between its two 200-char messages:
    //   192.5 each, the one left over to the first → 193 and 192.
    const table = bills.map((bill) => ({ id: bill.entryId, calls: bill.calls, tokens: bill.tokens }));
    expect(table).toEqual([
      { id: session.id(3), calls: 2, tokens: 3_989 + 3_835 },
      { id: session.id(0), calls: 3, tokens: 400 + 400 + 385 },
      { id: session.id(1), calls: 3, tokens: 200 + 200 + 193 },
      { id: session.id(4), calls: 1, tokens: 385 },
      { id: session.id(5), calls: 1, tokens: 192 },
      { id: session.id(2), calls: 2, tokens: 11 + 10 },
    ]);
    expect(counted).toBe(3);
    expect(unknown).toBe(0);
    // Every call's tokens are billed to its facts, no more, no less.
    expect(bills.reduce((sum, bill) => sum + bill.tokens, 0)).toBe(600 + 4_600 + 5_000);
  });

  it("leaves out calls whose messages were not kept, and says how many", () => {
    const session = syntheticSession();
    session.bodies[1] = readBody(undefined);
    const { bills, counted, unknown } = rebill(analyze(session));
    expect([counted, unknown]).toEqual([2, 1]);
    expect(bills.find((bill) => bill.entryId === session.id(0))?.calls).toBe(2);
  });
});
