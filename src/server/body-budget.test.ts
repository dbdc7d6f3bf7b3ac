import { describe, expect, it } from "vitest";
import { BodyBudget } from "./body-budget.ts";

describe("BodyBudget", () => {
  it("lets requests take bytes up to the shared limit, and refuses what would pass it without taking any", () => {
    const budget = new BodyBudget(100);
    const first = budget.open();
    const second = budget.open();
    expect(first.take(60)).toBe(true);
    expect(second.take(50)).toBe(false);
    expect(budget.held).toBe(60);
    expect(second.take(40)).toBe(true);
    expect(budget.held).toBe(100);
  });

  it("gives back everything a request took, once, however often it is released", () => {
    const budget = new BodyBudget(100);
    const share = budget.open();
    share.take(30);
    share.take(20);
    share.release();
    share.release();
    expect(budget.held).toBe(0);
    expect(share.take(1)).toBe(false);
    expect(budget.held).toBe(0);
  });

  it("always fits one body when nothing else is held, even one larger than the limit", () => {
    const budget = new BodyBudget(10);
    const alone = budget.open();
    expect(alone.take(25)).toBe(true);
    expect(budget.open().take(1)).toBe(false);
    alone.release();
    expect(budget.open().take(1)).toBe(true);
  });
});
