import type { Message } from "@earendil-works/pi-ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestSources } from "./request-sources.ts";

/** The lookup over the whole view, as a table keyed by message: what the positional walk must equal. */
function byTable(messages: readonly Message[], view: readonly Message[], sources: ArrayLike<number>) {
  const factOf = new Map<Message, number>();
  view.forEach((message, index) => factOf.set(message, sources[index] ?? -1));
  return messages.map((message) => factOf.get(message) ?? -1);
}

const message = (index: number): Message => ({ role: "user", content: `m${index}`, timestamp: index });

describe("a request's sources", () => {
  it("equal the lookup over the whole view, for requests that send the view, part of it, reordered or with others", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 300 }),
        fc.array(fc.integer({ min: -1, max: 400 }), { maxLength: 300 }),
        fc.array(fc.oneof(fc.nat({ max: 320 }), fc.constant(-1)), { maxLength: 340 }),
        fc.boolean(),
        (size, factIndexes, picks, asIs) => {
          const view = Array.from({ length: size }, (_, index) => message(index));
          const sources = Int32Array.from(view, (_, index) => factIndexes[index] ?? index);
          // The view itself (a plain send, often with one more at the end), or messages picked from it and others.
          const request = asIs
            ? [...view, message(1_000)]
            : picks.map((pick) =>
                pick >= 0 && pick < size ? (view[pick] as Message) : message(2_000 + pick),
              );
          // Each source given as its name, in both ways of finding it.
          expect(requestSources(request, view, sources, (fact) => `fact ${fact}`)).toEqual(
            byTable(request, view, sources).map((fact) => `fact ${fact}`),
          );
        },
      ),
    );
  });
});
