import type { AssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { estimateMessageTokens } from "@earendil-works/pi-ai/utils/estimate";
import { messageTokens } from "../messages/tokens.ts";
import { replyTokens, sumUsage, UsageSummer } from "./usage.ts";

function reply(text: string, change: Partial<AssistantMessage> = {}): AssistantMessage {
  return { ...createInjectedAssistantMessage(text), ...change };
}

function used(input: number, output: number, cacheRead: number, cacheWrite = 0, cost = 0.25) {
  const base = reply("a");
  return reply("a", {
    usage: { ...base.usage, input, output, cacheRead, cacheWrite, cost: { ...base.usage.cost, total: cost } },
  });
}

describe("token counts", () => {
  it("keeps input, cached input, cache writes and output apart, as the provider reported them", () => {
    expect(replyTokens(used(10, 5, 2, 3))).toEqual({
      input: 10,
      cacheRead: 2,
      cacheWrite: 3,
      output: 5,
      outputEstimated: false,
      cost: 0.25,
    });
  });

  it("estimates the output of a reply stopped before the provider reported usage, from what streamed", () => {
    const text = "Seventy characters of streamed text, twenty tokens at three and a half";
    const stopped = reply(text, { stopReason: "aborted" });
    const counts = replyTokens(stopped);
    expect(counts.outputEstimated).toBe(true);
    // pi-ai's estimate of the reply, the one the whole page uses.
    expect(counts.output).toBe(messageTokens(stopped));
    expect(counts.output).toBe(estimateMessageTokens(stopped));
    expect(counts.output).toBe(20);
    // A failure mid-stream is counted the same way.
    expect(replyTokens(reply(text, { stopReason: "error" })).outputEstimated).toBe(true);
  });

  it("never estimates when the provider reported usage, nothing streamed, or the reply finished", () => {
    const aborted = { ...used(10, 7, 0), stopReason: "aborted" as const };
    expect(replyTokens(aborted)).toMatchObject({ output: 7, outputEstimated: false });
    expect(replyTokens(reply("", { stopReason: "aborted" }))).toMatchObject({
      output: 0,
      outputEstimated: false,
    });
    // A prepared or hand-written reply costs nothing and claims nothing.
    expect(replyTokens(reply("hand-written"))).toMatchObject({ output: 0, outputEstimated: false });
  });

  it("sums every model reply of a session, and says when an estimate is among them", () => {
    const stopped = reply("streamed before Stop", { stopReason: "aborted" });
    expect(sumUsage([createUserMessage("q"), used(10, 5, 2), used(10, 5, 2)])).toEqual({
      input: 20,
      output: 10,
      cacheRead: 4,
      cacheWrite: 0,
      outputEstimated: false,
      cost: 0.5,
      replies: 2,
    });
    expect(sumUsage([used(10, 5, 2), stopped])).toMatchObject({
      input: 10,
      output: 5 + messageTokens(stopped),
      outputEstimated: true,
      replies: 2,
    });
  });

  it("keeps the total of a growing session by adding only new replies, and sums again after any other change", () => {
    const summer = new UsageSummer();
    let facts: AssistantMessage[] = [];
    let seed = 7;
    // A random session: replies appended, replaced, removed; the kept total always equals a fresh sum.
    for (let step = 0; step < 300; step++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const choice = seed % 10;
      const next = used(seed % 50, seed % 13, seed % 7, seed % 3, (seed % 5) / 100);
      if (choice < 7 || facts.length === 0) facts = [...facts, next];
      else if (choice < 9) facts = facts.map((fact, index) => (index === seed % facts.length ? next : fact));
      else facts = facts.slice(0, -1);
      expect(summer.sum(facts)).toEqual(sumUsage(facts));
    }
  });

  it("returns the same total for the same list, and a new one when the list grew", () => {
    const summer = new UsageSummer();
    const facts = [used(10, 5, 2)];
    const first = summer.sum(facts);
    expect(summer.sum(facts)).toBe(first);
    const grown = summer.sum([...facts, used(1, 1, 1)]);
    expect(grown).not.toBe(first);
    expect(first.replies).toBe(1);
    expect(grown.replies).toBe(2);
  });
});
