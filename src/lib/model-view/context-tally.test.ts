import type { Message } from "@earendil-works/pi-ai";
import { estimateContextTokens, estimateMessageTokens } from "@earendil-works/pi-ai/utils/estimate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "../messages/fuzz.test-support.ts";
import {
  assistantMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
} from "../messages/pi-message.arbitraries.test-support.ts";
import { estimable } from "../messages/tokens.ts";
import { tallyContext, type ContextTally } from "./context-tally.ts";

/**
 * Every role, with pi's odd shapes, out-of-order and missing timestamps, failed and aborted replies: those
 * pi-ai's estimator reads without throwing once made estimable (a hole in a list of parts throws in pi-ai).
 */
const anyMessage = (
  fc.oneof(
    systemMessage,
    userMessage,
    toolResultMessage,
    assistantMessage,
    assistantMessage,
  ) as fc.Arbitrary<Message>
).filter((message) => {
  try {
    estimateMessageTokens(estimable(message));
    return true;
  } catch {
    return false;
  }
});

/** pi-ai's own estimate of a context, of messages as its estimator can read them. */
function piAi(messages: readonly Message[]): number {
  return estimateContextTokens(messages.map(estimable)).tokens;
}

describe("a context's tally", () => {
  it("is pi-ai's estimate of the whole context", () => {
    fc.assert(
      fc.property(fc.array(anyMessage, { maxLength: 16 }), (messages) => {
        expect(tallyContext(messages).tokens).toBe(piAi(messages));
      }),
      fuzzParameters(300),
    );
  });

  it("continued over appended messages, is pi-ai's estimate of the context after each append", () => {
    fc.assert(
      fc.property(
        fc.array(anyMessage, { maxLength: 20 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 20 }),
        (messages, steps) => {
          let tally: ContextTally | undefined;
          let length = 0;
          for (const step of steps) {
            const next = Math.min(messages.length, length + step);
            const context = messages.slice(0, next);
            tally = tallyContext(context, length, tally);
            length = next;
            expect(tally.tokens).toBe(piAi(context));
          }
        },
      ),
      fuzzParameters(300),
    );
  });

  it("estimates only the messages after the last reply with usage, and of a continued tally only the new ones", () => {
    const estimated: Message[] = [];
    const user = (text: string, timestamp: number): Message => {
      // A getter on the content: read once by each estimate of the message.
      const message = { role: "user", timestamp } as Message & { content: string };
      Object.defineProperty(message, "content", {
        get: () => {
          estimated.push(message);
          return text;
        },
        enumerable: true,
      });
      return message;
    };
    const reply = {
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      api: "mirror",
      provider: "mirror",
      model: "mirror",
      usage: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 10 },
      stopReason: "stop",
      timestamp: 1_000,
    } as Message;
    const before = Array.from({ length: 1_000 }, (_, index) => user(`before ${index}`, index));
    const after = [user("after the reply", 1_001), user("and another", 1_002)];
    const context = [...before, reply, ...after];
    const expected = piAi(context);
    estimated.length = 0;
    const tally = tallyContext(context);
    expect(tally.tokens).toBe(expected);
    // The tally estimates only the two messages after the reply.
    expect(new Set(estimated)).toEqual(new Set(after));
    const appended = user("appended", 1_003);
    estimated.length = 0;
    const longer = tallyContext([...context, appended], context.length, tally);
    expect(new Set(estimated)).toEqual(new Set([appended]));
    expect(longer.tokens).toBe(tally.tokens + tallyContext([appended]).tokens);
  });
});
