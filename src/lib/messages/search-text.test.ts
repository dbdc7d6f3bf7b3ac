import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { MAX_SEARCHED_LENGTH } from "../ui/text-search.ts";
import { createCompactionSummary, createCustomMessage, createUserMessage } from "./factories.ts";
import { searchTextOf } from "./search-text.ts";

const reply: AgentMessage = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: "the user wants the weather" },
    { type: "text", text: "Let me look." },
    { type: "toolCall", id: "c1", name: "get_weather", arguments: { city: "Lyon" } },
  ],
  api: "mirror",
  provider: "mirror",
  model: "mirror",
  usage: zeroUsage(),
  stopReason: "toolUse",
  timestamp: 1,
};

describe("what a search reads of a message", () => {
  it("reads a reply's text, its tool calls' names and arguments, and its thinking", () => {
    const text = searchTextOf(reply);
    expect(text.names).toBe("assistant");
    expect(text.body).toContain("Let me look.");
    expect(text.body).toContain("get_weather");
    expect(text.body).toContain("Lyon");
    expect(text.body).toContain("the user wants the weather");
  });

  it("reads a tool result's tool name and a custom message's type", () => {
    const result: AgentMessage = {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "get_weather",
      content: [{ type: "text", text: "sunny" }],
      isError: false,
      timestamp: 2,
    };
    expect(searchTextOf(result).texts).toEqual(["toolResult", expect.stringMatching(/get_weather.*sunny/s)]);
    expect(searchTextOf(createCustomMessage("reminder", "drink water", true)).names).toBe(
      "custom:reminder custom",
    );
    expect(searchTextOf(createCompactionSummary("earlier work", 100)).texts[0]).toBe("compactionSummary");
  });

  it("keeps only what the search reads of a long text, and reads a broken fact without failing", () => {
    const long = searchTextOf(createUserMessage("x".repeat(5 * MAX_SEARCHED_LENGTH)));
    expect(long.body).toHaveLength(MAX_SEARCHED_LENGTH);
    const broken = { role: "toolResult", content: 42 } as unknown as AgentMessage;
    expect(searchTextOf(broken).names).toBe("toolResult");
  });

  it("keeps one copy of a fact's text: the texts a search reads are its names and its body themselves", () => {
    const text = searchTextOf(createUserMessage("hello there"));
    expect(text.texts).toHaveLength(2);
    expect(text.texts[0]).toBe(text.names);
    expect(text.texts[1]).toBe(text.body);
    expect(Object.values(text)).not.toContain(`${text.names}\n${text.body}`);
  });

  it("is read once per message", () => {
    const message = createUserMessage("hello");
    expect(searchTextOf(message)).toBe(searchTextOf(message));
  });
});
