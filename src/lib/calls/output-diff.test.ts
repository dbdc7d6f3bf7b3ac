import { describe, expect, it } from "vitest";
import { DIFF_MAX_CHARS, payloadDiff, replyText, wordDiff } from "./output-diff.ts";

describe("comparing a variant's output and payload with its original's", () => {
  it("marks the words only one side has", () => {
    const diff = wordDiff("The sky is blue today.", "The sky is grey today.");
    expect(diff).toEqual({
      ok: true,
      changed: true,
      parts: [
        { kind: "same", text: "The sky is " },
        { kind: "removed", text: "blue" },
        { kind: "added", text: "grey" },
        { kind: "same", text: " today." },
      ],
    });
    expect(wordDiff("same", "same")).toEqual({
      ok: true,
      changed: false,
      parts: [{ kind: "same", text: "same" }],
    });
  });

  it("diffs payloads line by line, and refuses texts too long or too different rather than freezing the page", () => {
    const diff = payloadDiff({ model: "a", messages: [1] }, { model: "b", messages: [1] });
    if (!diff.ok) throw new Error(diff.reason);
    expect(diff.parts.filter((part) => part.kind !== "same").map((part) => part.text.trim())).toEqual([
      '"model": "a",',
      '"model": "b",',
    ]);
    const long = "word ".repeat(DIFF_MAX_CHARS / 5 + 1);
    expect(wordDiff(long, "x")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Too long to compare/),
    });
    const a = Array.from({ length: 6000 }, (_, i) => `a${i}`).join(" ");
    const b = Array.from({ length: 6000 }, (_, i) => `b${i}`).join(" ");
    expect(wordDiff(a, b)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/differ too much to compare here/),
    });
  });

  it("reads a reply's text, thinking and tool calls in order", () => {
    expect(
      replyText({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hm" },
          { type: "text", text: "Let me look." },
          { type: "toolCall", id: "1", name: "lookup", arguments: { id: 7 } },
        ],
      } as never),
    ).toBe('[thinking] hm\nLet me look.\n[tool call] lookup {"id":7}');
  });
});
