import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertToLlm } from "./convert.ts";
import { fuzzParameters, fuzzTimeout } from "./fuzz.test-support.ts";
import { anyMessage, shortText } from "./pi-message.arbitraries.test-support.ts";

/**
 * The playground's `convertToLlm` against pi coding agent 1.6.0's own, on random message lists: every
 * role, the odd shapes pi's code passes through, sparse lists, and messages changed in place between two
 * conversions. Equal means strictly equal (the same keys, undefined ones included).
 */
const pi = (await import(
  new URL("../../../node_modules/@earendil-works/pi-coding-agent/dist/core/messages.js", import.meta.url).href
)) as { convertToLlm: (messages: unknown[]) => Message[] };

const messages = fc.oneof(
  { weight: 5, arbitrary: fc.array(anyMessage, { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.sparseArray(anyMessage, { maxLength: 12 }) },
);

/** A change made to one message in place: one of its fields set to another value, or removed. */
const change = fc.record({
  at: fc.nat(),
  field: fc.constantFrom(
    "content",
    "summary",
    "command",
    "output",
    "exitCode",
    "cancelled",
    "truncated",
    "fullOutputPath",
    "excludeFromContext",
    "timestamp",
    "customType",
    "text",
  ),
  value: fc.oneof(shortText, fc.integer(), fc.boolean(), fc.constant(undefined), fc.constant("removed")),
});

const lists = fuzzParameters<[unknown]>(400);
const changes = fuzzParameters<[unknown, unknown]>(300, 1);

describe("convertToLlm against pi's, fuzzed", () => {
  it(
    "equals pi's on random message lists",
    () => {
      fc.assert(
        fc.property(messages, (list) => {
          expect(convertToLlm(list as unknown as AgentMessage[])).toStrictEqual(pi.convertToLlm(list));
        }),
        lists,
      );
    },
    fuzzTimeout(lists),
  );

  it(
    "equals pi's again after a message changed in place",
    () => {
      fc.assert(
        fc.property(
          fc.array(anyMessage, { minLength: 1, maxLength: 8 }),
          fc.array(change, { maxLength: 3 }),
          (list, changes) => {
            const facts = list as unknown as AgentMessage[];
            convertToLlm(facts);
            for (const { at, field, value } of changes) {
              const target = list[at % list.length] as Record<string, unknown>;
              if (value === "removed") delete target[field];
              else target[field] = value;
              expect(convertToLlm(facts)).toStrictEqual(pi.convertToLlm(list));
            }
          },
        ),
        changes,
      );
    },
    fuzzTimeout(changes),
  );
});
