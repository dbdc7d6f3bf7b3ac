import { describe, expect, it } from "vitest";
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
