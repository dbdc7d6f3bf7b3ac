import { describe, expect, it } from "vitest";
import { changeLabel, describeChange, PROVIDER_CHANGE_LABELS } from "./provider-change-labels.ts";
import type { ProviderChange } from "./provider-changes.ts";

describe("change labels", () => {
  const samples: ProviderChange[] = [
    { kind: "unchanged" },
    { kind: "dropped", reason: "error" },
    { kind: "dropped", reason: "aborted" },
    { kind: "dropped", reason: "unexplained" },
    {
      kind: "placeholder-added",
      toolCallId: "toolu_1",
      toolName: "get_time",
      callProviderIndex: 2,
      callModelIndex: 3,
    },
    { kind: "thinking-dropped", blocks: 2, reason: "another-model" },
    { kind: "thinking-dropped", blocks: 1, reason: "empty" },
    { kind: "tool-call-id-rewritten", from: "call_1|fc_2", to: "call_1_fc_2" },
    { kind: "signature-stripped", blocks: 1 },
    { kind: "images-downgraded", images: 2 },
    { kind: "system-moved", heldPast: 1 },
    { kind: "system-merged", from: [0, 4] },
    { kind: "system-folded", into: 0 },
    { kind: "reordered", heldPast: 2 },
    { kind: "added" },
  ];

  it("has one label per kind and reason, and every change has one", () => {
    const used = new Set(samples.map(changeLabel));
    expect(used).toEqual(new Set(Object.values(PROVIDER_CHANGE_LABELS)));
    expect(changeLabel({ kind: "dropped", reason: "error" })).toBe("dropped: reply ended in error");
    expect(changeLabel({ kind: "dropped", reason: "aborted" })).toBe("dropped: aborted");
  });

  it("gives the particulars of a change", () => {
    expect(samples.map(describeChange)).toEqual([
      "unchanged",
      "dropped: reply ended in error",
      "dropped: aborted",
      "dropped by the provider transform",
      "placeholder result added for get_time (toolu_1)",
      "thinking from another model dropped (2 blocks)",
      "empty thinking dropped (1 block)",
      "tool call id rewritten: call_1|fc_2 → call_1_fc_2",
      "another model's signature stripped (1 block)",
      "images replaced by a note (model takes no images) (2 images)",
      "system message held until after the tool results (after 1 later message)",
      "system prompt rebuilt from the system messages (2 system messages)",
      "folded into the leading system prompt",
      "moved by the provider transform (after 2 later messages)",
      "added by the provider transform",
    ]);
  });
});
