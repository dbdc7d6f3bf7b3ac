import type { AssistantMessageEvent } from "@earendil-works/pi-ai";
import { describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import { VariantRun, type VariantRunHost } from "../agent/variant-sets/variant-run.svelte.ts";
import { seedColumns, type VariantSetView } from "../agent/variant-sets/variant-set.ts";
import { replyText } from "../messages/reply-text.ts";
import type { CallBodyRecord, CallRecord } from "../storage/records.ts";
import VariantComparison from "./VariantComparison.svelte";
import { mirrorReply as reply } from "../agent/variant-sets/mirror-reply.test-support.ts";

// Counted, not replaced: how often the comparison works out a recorded turn's output.
vi.mock(import("../messages/reply-text.ts"), { spy: true });

/**
 * A comparison in Chromium while its second turn streams: what streams shows in the turn in progress, and
 * the recorded first turn is not worked out again at each showing.
 */

describe("a comparison while a turn streams", () => {
  it("shows each showing in the turn in progress without working out the recorded turns again", async () => {
    const setups = seedColumns(defaultSettings(), "p", [], 3);
    const first = (column: number) => `recorded answer of column ${column}`;
    const calls = setups.map(
      (_, column) =>
        ({
          id: `call-${column}`,
          seq: column,
          outcome: { stopReason: "stop", usage: reply("").usage },
          timing: { firstTokenMs: 1, durationMs: 2 },
        }) as unknown as CallRecord,
    );
    const set: VariantSetView = {
      id: "set",
      baseLeafId: "leaf",
      startedAt: 0,
      prompts: ["first"],
      columns: setups.map((setup, column) => ({ setup, turns: [calls[column]] })),
    };
    const body = (seq: number): CallBodyRecord =>
      ({ reply: { kept: "all", value: reply(first(seq)) } }) as unknown as CallBodyRecord;
    const session = {
      calls: { body: async (seq: number) => body(seq) },
      modelOf: () => ({ api: "mirror" }),
    } as unknown as ChatSession;
    const deltas: ((text: string) => void)[] = [];
    const host: VariantRunHost = {
      leafId: "leaf",
      runVariantTurn: (link, _earlier, signal, onEvent) => {
        deltas[link.column] = (text) =>
          onEvent?.({ type: "text_delta", contentIndex: 0, delta: text } as AssistantMessageEvent);
        return new Promise((resolve) =>
          signal.addEventListener("abort", () =>
            resolve({ call: calls[link.column] as CallRecord, reply: reply("") }),
          ),
        );
      },
    };
    const run = new VariantRun(host, setups, {
      id: "set",
      baseLeafId: "leaf",
      turns: setups.map((_, column) => [{ prompt: "first", at: 0, reply: reply(first(column)) }]),
    });
    const { unmount } = await render(VariantComparison, { session, set, run, busy: false, onuse: () => {} });
    try {
      const output = (turn: number, label: string) =>
        page.getByLabelText(`Turn ${turn}, output of variant ${label}`);
      await expect.element(output(1, "C")).toHaveTextContent(first(2));
      const sending = run.send("second");
      deltas.forEach((delta, column) => delta(`streamed ${column}.`));
      await expect.element(output(2, "C")).toHaveTextContent("streamed 2.");
      const worked = vi.mocked(replyText).mock.calls.length;
      // Three more showings, every column growing in each (each shown before the next streams).
      let streamed = "";
      for (const more of [" one", " two", " three"]) {
        streamed += more;
        deltas.forEach((delta) => delta(more));
        for (const [column, label] of ["A", "B", "C"].entries())
          await expect.element(output(2, label)).toHaveTextContent(`streamed ${column}.${streamed}`);
      }
      expect(vi.mocked(replyText).mock.calls.length).toBe(worked);
      // The recorded turn still shows its answers.
      await expect.element(output(1, "A")).toHaveTextContent(first(0));
      run.stop();
      await sending;
    } finally {
      await unmount();
    }
  });
});
