import type { AssistantMessage, ToolResultMessage, UserMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { wordDiff } from "./output-diff.ts";
import { messageDiffText } from "./message-diff-text.ts";

const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: 1 });

describe("messageDiffText", () => {
  it("gives a user message's text and names its images", () => {
    expect(messageDiffText(user("plain"))).toBe("plain");
    expect(
      messageDiffText(
        user([
          { type: "text", text: "look" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ]),
      ),
    ).toBe("look\n[image image/png]");
  });

  it("gives a system prompt with its named sections, a removed one said so", () => {
    expect(
      messageDiffText({
        role: "system",
        content: "You are terse.",
        sections: { rules: "<rules>no emoji</rules>", old: null },
        timestamp: 0,
      }),
    ).toBe("You are terse.\n[section rules]\n<rules>no emoji</rules>\n[section old] removed");
  });

  it("gives a reply's text, thinking and tool calls, and a tool result with the tool it answers", () => {
    const reply: AssistantMessage = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hm" },
        { type: "text", text: "Let me look." },
        { type: "toolCall", id: "t1", name: "lookup", arguments: { id: 7 } },
      ],
      api: "openai-completions",
      provider: "p",
      model: "m",
      usage: zeroUsage(),
      stopReason: "toolUse",
      timestamp: 2,
    };
    expect(messageDiffText(reply)).toBe('[thinking] hm\nLet me look.\n[tool call] lookup {"id":7}');
    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: "t1",
      toolName: "lookup",
      content: [{ type: "text", text: "order 7: shipped" }],
      isError: true,
      timestamp: 3,
    };
    expect(messageDiffText(result)).toBe("[result of lookup, an error]\norder 7: shipped");
  });

  it("lets a word diff show the one word that changed inside a message", () => {
    const diff = wordDiff(
      messageDiffText(user("Deploy: pending, waiting for a decision")),
      messageDiffText(user("Deploy: approved, waiting for a decision")),
    );
    if (!diff.ok) throw new Error(diff.reason);
    expect(diff.parts.filter((part) => part.kind !== "same")).toEqual([
      { kind: "removed", text: "pending" },
      { kind: "added", text: "approved" },
    ]);
  });
});
