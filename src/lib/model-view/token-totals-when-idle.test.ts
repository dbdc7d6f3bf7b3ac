import { describe, expect, it } from "vitest";
import type { ModelView } from "./project.ts";
import { totalTokensWhenIdle, type IdleScheduler } from "./token-totals-when-idle.ts";

/** Idle periods run by hand, one at a time. */
function idlePeriods() {
  const queue: (() => void)[] = [];
  const idle: IdleScheduler = (work) => {
    queue.push(work);
    return () => {
      const at = queue.indexOf(work);
      if (at >= 0) queue.splice(at, 1);
    };
  };
  const next = async (): Promise<void> => {
    queue.shift()?.();
    // The estimator's code arrives asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { idle, next, waiting: () => queue.length };
}

describe("totalTokensWhenIdle", () => {
  const view = {} as ModelView;

  function passes() {
    const ran: string[] = [];
    const load = async () => ({
      viewFactTokens: (seen: ModelView) => (ran.push(seen === view ? "facts" : "other"), 0),
      viewModelTokens: (seen: ModelView) => (ran.push(seen === view ? "model" : "other"), 0),
    });
    return { ran, load };
  }

  it("runs the facts' pass and the model messages' pass each in an idle period of its own", async () => {
    const { idle, next, waiting } = idlePeriods();
    const { ran, load } = passes();
    totalTokensWhenIdle(view, { idle, load });
    expect(ran).toEqual([]);
    await next();
    expect(ran).toEqual(["facts"]);
    expect(waiting()).toBe(1);
    await next();
    expect(ran).toEqual(["facts", "model"]);
    expect(waiting()).toBe(0);
  });

  it("runs nothing more once called off: before the first period, while its code loads, or between the two", async () => {
    const cases: [string, (next: () => Promise<void>, cancel: () => void) => Promise<void>, string[]][] = [
      ["before the first period", async (_next, cancel) => cancel(), []],
      [
        "while the code loads",
        async (next, cancel) => {
          const loading = next();
          cancel();
          await loading;
        },
        [],
      ],
      [
        "between the two passes",
        async (next, cancel) => {
          await next();
          cancel();
        },
        ["facts"],
      ],
    ];
    for (const [when, callOff, expected] of cases) {
      const { idle, next, waiting } = idlePeriods();
      const { ran, load } = passes();
      await callOff(next, totalTokensWhenIdle(view, { idle, load }));
      while (waiting() > 0) await next();
      expect(ran, when).toEqual(expected);
    }
  });
});
