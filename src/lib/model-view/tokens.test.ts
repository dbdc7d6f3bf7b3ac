import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTextAndImageContentTokens,
  estimateTextTokens,
} from "@earendil-works/pi-ai/utils/estimate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "../messages/fuzz.test-support.ts";
import {
  assistantMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
} from "../messages/pi-message.arbitraries.test-support.ts";
import { CHARS_PER_TOKEN, ESTIMATED_IMAGE_CHARS, measureParts, type TokenPart } from "./token-parts.ts";
import { messageTokens } from "../messages/tokens.ts";
import { contextTokens, factTokens } from "./view-tokens.ts";

const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };

/** The parts `measureParts` reports, and the estimate it returns. */
function parts(message: Message): { parts: [TokenPart, number, number][]; estimate: number } {
  const seen: [TokenPart, number, number][] = [];
  const estimate = measureParts(message, { part: (kind, chars, blocks) => seen.push([kind, chars, blocks]) });
  return { parts: seen, estimate };
}

/** Messages pi-ai's estimator reads as they are: what a model view holds for a well-formed session. */
const wellFormed = fc
  .oneof(systemMessage, userMessage, toolResultMessage, assistantMessage)
  .filter((message) => message.role !== "assistant" || Array.isArray(message.content))
  .map((message) =>
    message.role === "assistant"
      ? {
          ...message,
          content: (message.content as unknown[]).filter(
            (part) => typeof part === "object" && part !== null && "type" in part && part.type !== "video",
          ),
        }
      : message,
  )
  .filter((message) =>
    message.role === "assistant"
      ? (message.content as { type: string }[]).every((part) =>
          ["text", "thinking", "toolCall"].includes(part.type),
        )
      : true,
  ) as fc.Arbitrary<Message>;

describe("the page's token estimate is pi-ai's", () => {
  it("splits a message by the characters and image size pi-ai counts (fails if pi-ai changes them)", () => {
    for (const length of [0, 1, 3, 4, 7, 350, 351])
      expect(estimateTextTokens("x".repeat(length))).toBe(Math.ceil(length / CHARS_PER_TOKEN));
    for (const images of [1, 2, 3])
      expect(estimateTextAndImageContentTokens(Array.from({ length: images }, () => image))).toBe(
        Math.ceil((images * ESTIMATED_IMAGE_CHARS) / CHARS_PER_TOKEN),
      );
  });

  it("gives pi-ai's estimate for every well-formed message, and parts that add up to it", () => {
    fc.assert(
      fc.property(wellFormed, (message) => {
        const { parts: seen, estimate } = parts(message);
        expect(estimate).toBe(estimateMessageTokens(message));
        expect(messageTokens(message)).toBe(estimateMessageTokens(message));
        // Parts of one kind are one rounding unit in pi-ai's sum, so the characters give its estimate back.
        const chars = seen.reduce((sum, [, size]) => sum + size, 0);
        if (message.role !== "system") expect(Math.ceil(chars / CHARS_PER_TOKEN)).toBe(estimate);
      }),
      fuzzParameters(300),
    );
  });

  it("counts a system message's tool definitions as pi-ai does, as one part of as many blocks as tools", () => {
    const tool = (name: string) => ({
      name,
      description: `The ${name} tool.`,
      parameters: { type: "object", properties: {} },
    });
    const system = {
      role: "system",
      content: "You are terse.",
      toolsAdded: [tool("a"), tool("b")],
      toolsRemoved: [tool("c")],
      timestamp: 1,
    } as unknown as Message;
    const { parts: seen, estimate } = parts(system);
    expect(estimate).toBe(estimateMessageTokens(system));
    expect(seen.map(([kind, , blocks]) => [kind, blocks])).toEqual([
      ["system", 1],
      ["tools", 3],
    ]);
  });

  it("anchors a context on the last reply's usage exactly as pi-ai does", () => {
    fc.assert(
      fc.property(fc.array(wellFormed, { maxLength: 12 }), (messages) => {
        expect(contextTokens(messages)).toEqual(estimateContextTokens(messages));
      }),
      fuzzParameters(200),
    );
  });

  it("estimates messages pi-ai's estimator would throw on by what they hold, and never throws", () => {
    const odd = [
      { role: "assistant", content: "a string where a list belongs", usage: undefined, timestamp: 1 },
      { role: "assistant", content: null, timestamp: 2 },
      { role: "assistant", content: [null, { type: "video" }, { type: "text", text: "kept" }], timestamp: 3 },
      {
        role: "toolResult",
        toolCallId: "c",
        toolName: "t",
        content: undefined,
        isError: false,
        timestamp: 4,
      },
      { role: "user", content: [null, { type: "text", text: "hi" }, image], timestamp: 5 },
    ] as unknown as Message[];
    expect(() => estimateContextTokens(odd)).toThrow();
    const text = (value: string) => ({ role: "user", content: value, timestamp: 0 }) as Message;
    expect(odd.map(messageTokens)).toEqual([
      estimateMessageTokens(text("a string where a list belongs")),
      0,
      estimateMessageTokens(text("kept")),
      0,
      estimateTextAndImageContentTokens([{ type: "text", text: "hi" }, image]),
    ]);
    expect(contextTokens(odd).tokens).toBe(odd.map(messageTokens).reduce((sum, tokens) => sum + tokens, 0));
    // The parts the anatomy splits by come to the same estimate.
    for (const message of odd) expect(parts(message).estimate).toBe(messageTokens(message));
  });

  it("sizes the custom facts by pi-ai's text estimate of what they hold", () => {
    const facts = [
      { role: "notification", text: "the build finished", timestamp: 1 },
      { role: "progress", text: "half way", fraction: 0.5, timestamp: 2 },
      { role: "approval_request", action: "Deploy", subject: "prod", reason: "Friday", timestamp: 3 },
      { role: "bashExecution", command: "ls", output: "a b c", exitCode: 0, timestamp: 4 },
      { role: "branchSummary", summary: "tried another way", fromId: "x", timestamp: 5 },
      { role: "custom", customType: "note", content: [{ type: "text", text: "ctx" }, image], display: true },
      { role: "wizard", spell: "fireball" },
    ] as unknown as AgentMessage[];
    expect(facts.map(factTokens)).toEqual([
      estimateTextTokens("the build finished"),
      estimateTextTokens("half way"),
      estimateTextTokens("DeployprodFriday"),
      estimateTextTokens("lsa b c"),
      estimateTextTokens("tried another way"),
      estimateTextAndImageContentTokens([{ type: "text", text: "ctx" }, image]),
      0,
    ]);
  });
});
