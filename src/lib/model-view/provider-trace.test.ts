import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { ProviderView } from "./provider-changes.ts";
import { traceProviderTransform } from "./provider-trace.ts";

const sourceIndices = (view: ProviderView) => Array.from(view.sourceOf);
const targetIndices = (view: ProviderView) => Array.from(view.targetOf);

describe("traceProviderTransform on outputs pi-ai 1.6 never produces", () => {
  const first: Message = { role: "user", content: "one", timestamp: 1 };
  const second: Message = { role: "user", content: "two", timestamp: 2 };
  const third: Message = { role: "user", content: "three", timestamp: 3 };

  it("reports a message moved, added or dropped without a known reason, rather than hiding it", () => {
    const added: Message = { role: "user", content: "new", timestamp: 9 };
    const view = traceProviderTransform([first, second, third], [second, first, added]);
    expect(view.providerChanges).toEqual([
      [{ kind: "unchanged" }],
      [{ kind: "reordered", heldPast: 1 }],
      [{ kind: "added" }],
    ]);
    expect(view.modelChanges[2]).toEqual([{ kind: "dropped", reason: "unexplained" }]);
    expect(sourceIndices(view)).toEqual([1, 0, -1]);
  });

  it("links the same object sent twice to its two occurrences", () => {
    const view = traceProviderTransform([first, first], [first, first]);
    expect(sourceIndices(view)).toEqual([0, 1]);
    expect(targetIndices(view)).toEqual([0, 1]);
  });
});
