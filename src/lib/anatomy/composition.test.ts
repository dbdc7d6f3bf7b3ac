import type { Message } from "@earendil-works/pi-ai";
import { estimateContextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { describe, expect, it } from "vitest";
import { compose, type Composition, type MessageSource } from "./composition.ts";
import { assistant, system, toolResult, usage, user } from "./anatomy.test-support.ts";

const sum = (composition: Composition) =>
  composition.categories.reduce((total, category) => total + category.tokens, 0);

const request: Message[] = [
  system("You are terse.".repeat(20), ["current_time", "calculate"]),
  user("What is 12 * 7?"),
  assistant("Calling calculate.", {
    thinking: "The user wants arithmetic.",
    call: { id: "c1", name: "calculate", args: { expression: "12 * 7" } },
  }),
  toolResult("c1", "calculate", "12 * 7 = 84 ".repeat(300)),
  user("[Notification] the build finished"),
];
const sources: MessageSource[] = [
  { entryId: "e0", role: "system" },
  { entryId: "e1", role: "user" },
  { entryId: "e2", role: "assistant" },
  { entryId: "e3", role: "toolResult" },
  { entryId: "e4", role: "notification" },
];

describe("compose", () => {
  it("splits the provider's input count by category, and the categories add up to it", () => {
    const composition = compose(request, sources, usage(1_000, 50, 3_000, 1_234));
    expect(composition.total).toBe(5_234);
    expect(sum(composition)).toBe(5_234);
    expect(composition.basis).toMatchObject({
      kind: "usage",
      input: 1_000,
      cacheRead: 3_000,
      cacheWrite: 1_234,
    });
    expect(composition.messageTokens.reduce((total, tokens) => total + tokens, 0)).toBe(5_234);
    const contributors = composition.categories.flatMap((category) =>
      category.contributors.map((contributor) => contributor.tokens),
    );
    expect(contributors.reduce((total, tokens) => total + tokens, 0)).toBe(5_234);
  });

  it("names every category of the request, the converted notification apart from the user's text", () => {
    const composition = compose(request, sources, usage(2_000));
    const names = composition.categories.map((category) => category.category);
    expect(names[0]).toBe("toolResults");
    expect(new Set(names)).toEqual(
      new Set([
        "system",
        "tools",
        "userText",
        "assistantText",
        "thinking",
        "toolCalls",
        "toolResults",
        "notification",
      ]),
    );
    const tools = composition.categories.find((category) => category.category === "tools");
    expect(tools?.blocks).toBe(2);
    const notification = composition.categories.find((category) => category.category === "notification");
    expect(notification?.contributors).toEqual([
      { messageIndex: 4, entryId: "e4", tokens: notification?.tokens },
    ]);
  });

  it("without usage, totals pi-ai's own estimate and says it is one", () => {
    const composition = compose(request, sources);
    expect(composition.basis.kind).toBe("estimate");
    expect(composition.total).toBe(estimateContextTokens(request).tokens);
    expect(sum(composition)).toBe(composition.total);
  });

  it("estimates the next request from the last reply's usage, as pi-ai does", () => {
    const next = [...request.slice(0, 2), assistant("84", {}, 5, usage(400, 20)), user("and 13 * 7?", 6)];
    const composition = compose(
      next,
      next.map(() => ({ entryId: null, role: undefined })),
    );
    expect(composition.basis).toMatchObject({ kind: "estimate", anchorIndex: 2, usageTokens: 420 });
    expect(composition.total).toBe(estimateContextTokens(next).tokens);
    expect(sum(composition)).toBe(composition.total);
  });

  it("puts images in their own category and never throws on odd messages", () => {
    const odd = [
      { role: "user", content: [{ type: "image", data: "xx", mimeType: "image/png" }], timestamp: 1 },
      { role: "user", content: "plain string", timestamp: 2 },
      {
        role: "toolResult",
        toolCallId: "x",
        toolName: "t",
        content: undefined,
        isError: false,
        timestamp: 3,
      },
    ] as unknown as Message[];
    const composition = compose(odd, [], usage(100));
    expect(composition.categories.map((category) => category.category)).toEqual(["images", "userText"]);
    expect(sum(composition)).toBe(100);
  });

  it("keeps a total it cannot split as not attributable", () => {
    const composition = compose([user("")], [], usage(42));
    expect(composition.categories).toEqual([
      { category: "unattributed", tokens: 42, share: 1, blocks: 0, contributors: [] },
    ]);
  });
});
