import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { replyOf, testModel } from "../model-view/provider-fixtures.test-support.ts";
import { providerView } from "../model-view/provider-view.ts";
import { previewPromptLine, previewSummary } from "./preview-text.ts";

describe("the preview's words", () => {
  it("names the size of the request, its model and its options", () => {
    expect(
      previewSummary({
        model: { provider: "local", id: "fixture-tools" },
        context: { messages: [{ role: "user", content: "hi", timestamp: 1 }] },
        options: { sessionId: "s1" },
      }),
    ).toBe('1 message to local/fixture-tools, options {"sessionId":"s1"}');
    expect(previewSummary({ model: { provider: "mirror", id: "mirror" }, context: { messages: [] } })).toBe(
      "0 messages to mirror/mirror",
    );
  });

  it("gives the provider's count beside the model view's when the transform changes it", () => {
    const model = testModel("openai-completions", "openai", "gpt-4o-mini");
    const aborted: Message = { ...replyOf(model, [], 2), stopReason: "aborted" };
    const messages: Message[] = [{ role: "user", content: "hi", timestamp: 1 }, aborted];
    const request = { model: { provider: "openai", id: "gpt-4o-mini" }, context: { messages } };
    expect(previewSummary(request, providerView(messages, model))).toBe(
      "2 model messages → 1 provider message: 1 dropped; to openai/gpt-4o-mini",
    );
    const kept = messages.slice(0, 1);
    expect(previewSummary({ ...request, context: { messages: kept } }, providerView(kept, model))).toBe(
      "1 message to openai/gpt-4o-mini",
    );
  });

  it("says which prompt it includes, quoting a long one short", () => {
    expect(previewPromptLine("  ")).toMatch(/^The composer is empty/);
    expect(previewPromptLine("What  time\nis it?")).toBe(
      "With the message in the composer: “What time is it?”.",
    );
    expect(previewPromptLine("x".repeat(200))).toBe(
      `With the message in the composer: “${"x".repeat(79)}…”.`,
    );
  });
});
