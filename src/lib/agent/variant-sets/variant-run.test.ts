import type { AssistantMessageEvent } from "@earendil-works/pi-ai";
import { describe, expect, it, vi } from "vitest";
import type { CallRecord } from "../../storage/records.ts";
import { defaultSettings } from "../session-settings.ts";
import { SHOW_INTERVAL_MS } from "../show-pacer.ts";
import { VariantRun, type VariantRunHost } from "./variant-run.svelte.ts";
import { seedColumns, type ColumnTurn, type VariantLink } from "./variant-set.ts";
import { mirrorReply as reply } from "./mirror-reply.test-support.ts";

const until = async (condition: () => boolean) => {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error("timed out");
};

/**
 * A host whose columns stream what they are told: column 0 answers at once, column 1 streams a delta and
 * then never ends until its signal is aborted, column 2 throws before any request.
 */
function host() {
  const started: { link: VariantLink; earlier: readonly ColumnTurn[] }[] = [];
  const fake: VariantRunHost = {
    leafId: "leaf",
    async runVariantTurn(link, earlier, signal, onEvent) {
      started.push({ link, earlier });
      const delta = (text: string) =>
        onEvent?.({ type: "text_delta", contentIndex: 0, delta: text } as AssistantMessageEvent);
      const call = { id: `${link.column}-${link.turn}` } as CallRecord;
      if (link.column === 0) {
        delta("quick answer");
        return { call, reply: reply("quick answer") };
      }
      if (link.column === 2) throw new Error("no such model here");
      delta("slow ");
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      return { call, reply: { ...reply("slow "), stopReason: "aborted" } };
    },
  };
  return { fake, started };
}

describe("a comparison while it runs", () => {
  it("sends one prompt to every column at once, shows what streams, and stops a column that never ends without stopping the others", async () => {
    const { fake, started } = host();
    const run = new VariantRun(fake, seedColumns(defaultSettings(), "p", [], 3));
    const sending = run.send("compare");
    // All three started before any ended: they run in parallel.
    await until(() => started.length === 3);
    expect(started.map((turn) => turn.link.column)).toEqual([0, 1, 2]);
    expect(started.every((turn) => turn.link.prompt === "compare" && turn.link.turn === 0)).toBe(true);
    await until(() => run.live[0]?.status === "done" && run.live[2]?.status === "failed");
    await until(() => run.live[1]?.text === "slow ");
    expect(run.live[1]?.status).toBe("streaming");
    expect(run.live[2]?.error).toBe("no such model here");
    expect(run.sending).toBe(true);
    expect(await run.send("again")).toBe("The columns are still answering the last prompt.");

    run.stop(1);
    expect(await sending).toBeUndefined();
    expect(run.live[1]?.status).toBe("stopped");
    expect(run.live[0]?.text).toBe("quick answer");
    expect(run.sending).toBe(false);

    // The next turn follows each column's own turns.
    started.length = 0;
    void run.send("next");
    await until(() => started.length === 3);
    expect(started[0]?.earlier.map((turn) => turn.prompt)).toEqual(["compare"]);
    expect(started[0]?.earlier[0]?.reply?.content).toEqual([{ type: "text", text: "quick answer" }]);
    expect(started[2]?.earlier[0]?.reply).toBeUndefined();
    expect(run.prompts).toEqual(["compare", "next"]);
    run.stop();
  });

  it("shows what every column streamed in one update, on a frame at most every SHOW_INTERVAL_MS", async () => {
    vi.useFakeTimers();
    try {
      const deltas: ((text: string) => void)[] = [];
      const ends: (() => void)[] = [];
      const fake: VariantRunHost = {
        leafId: "leaf",
        runVariantTurn(link, _earlier, _signal, onEvent) {
          deltas[link.column] = (text) =>
            onEvent?.({ type: "text_delta", contentIndex: 0, delta: text } as AssistantMessageEvent);
          const call = { id: `${link.column}` } as CallRecord;
          return new Promise((resolve) => {
            ends[link.column] = () => resolve({ call, reply: reply("") });
          });
        },
      };
      const run = new VariantRun(fake, seedColumns(defaultSettings(), "p", [], 3));
      const sending = run.send("compare");
      const texts = () => run.live.map((live) => live.text);
      const sent = run.live;
      ["a", "b", "c"].forEach((text, column) => deltas[column]?.(text));
      // The next frame comes too soon after the prompt was sent: nothing shows yet, and no column is updated.
      vi.advanceTimersByTime(16);
      expect(run.live).toBe(sent);
      deltas[0]?.("A");
      // A frame once the interval has passed shows every column's text so far, in one update.
      vi.advanceTimersByTime(16);
      expect(texts()).toEqual(["aA", "b", "c"]);
      const shown = run.live;
      // Text streaming in over the next frames waits for the interval again, then shows together.
      deltas[1]?.("B");
      vi.advanceTimersByTime(16);
      deltas[2]?.("C");
      expect(run.live).toBe(shown);
      vi.advanceTimersByTime(16);
      expect(texts()).toEqual(["aA", "bB", "cC"]);
      expect(SHOW_INTERVAL_MS).toBeGreaterThan(16);
      expect(SHOW_INTERVAL_MS).toBeLessThanOrEqual(32);
      // What streamed since the last showing joins a column's text as it ends.
      deltas[0]?.("!");
      ends.forEach((end) => end());
      expect(await sending).toBeUndefined();
      expect(texts()).toEqual(["aA!", "bB", "cC"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses an empty or oversized prompt, and a prompt once the session left the branch it compares over", async () => {
    const { fake } = host();
    const run = new VariantRun(fake, seedColumns(defaultSettings(), "p", [], 2));
    expect(await run.send("   ")).toBe("Type a prompt to send to every column.");
    expect(await run.send("x".repeat(100_001))).toMatch(/^The prompt is 100,001 characters/);
    const moved = new VariantRun({ ...fake, leafId: "elsewhere" }, run.columns, { baseLeafId: "leaf" });
    expect(await moved.send("hi")).toMatch(/on another branch/);
    expect(moved.turnCount).toBe(0);
  });
});
