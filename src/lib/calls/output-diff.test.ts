import { describe, expect, it } from "vitest";
import { collapseShared, DIFF_MAX_CHARS, payloadDiff, replyText, wordDiff } from "./output-diff.ts";

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

  it("leaves out long stretches a payload diff shares, keeping three lines beside each change", () => {
    const messages = Array.from({ length: 40 }, (_, index) => `message ${index}`);
    const diff = payloadDiff({ model: "a", messages }, { model: "a", messages: [...messages, "new one"] });
    if (!diff.ok) throw new Error(diff.reason);
    const text = diff.parts.map((part) => `${part.kind}:${part.text}`).join("");
    // 42 shared lines before the change (the last message gains a comma): all but the three above it are
    // left out, and said so.
    expect(diff.parts[0]).toEqual({ kind: "skipped", text: "⋯ 39 unchanged lines ⋯\n" });
    expect(text).toContain('"message 38"');
    expect(text).not.toContain('"message 35"');
    expect(diff.parts.some((part) => part.kind === "added" && part.text.includes('"new one"'))).toBe(true);
    // Nothing is left out of a diff that is short, or that says the two are the same.
    expect(payloadDiff({ a: 1 }, { a: 2 }).ok && payloadDiff({ a: 1 }, { a: 2 })).toMatchObject({
      parts: [{ kind: "same" }, { kind: "removed" }, { kind: "added" }, { kind: "same" }],
    });
  });

  it("keeps context on both sides of a change between two others, and the text's lines whole", () => {
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) => `l${from + index}\n`).join("");
    const parts = collapseShared(
      [
        { kind: "removed", text: "a\n" },
        { kind: "same", text: lines(0, 10) },
        { kind: "added", text: "b\n" },
      ],
      3,
    );
    expect(parts).toEqual([
      { kind: "removed", text: "a\n" },
      { kind: "same", text: "l0\nl1\nl2\n" },
      { kind: "skipped", text: "⋯ 4 unchanged lines ⋯\n" },
      { kind: "same", text: "l7\nl8\nl9\n" },
      { kind: "added", text: "b\n" },
    ]);
  });
});
