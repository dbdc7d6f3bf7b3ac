import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import {
  createCustomMessage,
  createInjectedAssistantMessage,
  createUserMessage,
} from "../messages/factories.ts";
import { canRetry, layoutChat, placeMarkers } from "./chat-items.ts";

describe("layoutChat", () => {
  it("moves tool results into their call, leaves out display:false custom messages, keeps the rest in order", () => {
    const call = {
      ...createInjectedAssistantMessage("x"),
      content: [{ type: "toolCall" as const, id: "c1", name: "calculate", arguments: {} }],
    };
    const result: AgentMessage = {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "calculate",
      content: [],
      isError: false,
      timestamp: 2,
    };
    const orphan: AgentMessage = {
      role: "toolResult",
      toolCallId: "gone",
      toolName: "calculate",
      content: [],
      isError: false,
      timestamp: 3,
    };
    const prompt: AgentMessage = { role: "system", content: "prompt", timestamp: 0 };
    const toolChange: AgentMessage = {
      role: "system",
      content: "",
      toolsRemoved: [{ name: "x" }],
      timestamp: 4,
    };
    const facts: AgentMessage[] = [
      prompt,
      createUserMessage("q"),
      call,
      result,
      createCustomMessage("secret", "s", false),
      orphan,
      toolChange,
    ];
    const layout = layoutChat(facts);
    // The prompt is shown by its editor; a later system message (a tool change) stays in the chat.
    expect(layout.items.map((item) => item.index)).toEqual([1, 2, 5, 6]);
    expect(layout.results.get("c1")).toEqual({ message: result, index: 3 });
    expect(layout.hiddenCount).toBe(1);
  });
});

describe("canRetry", () => {
  it("offers Retry after a failed or aborted last reply only", () => {
    const failed = { ...createInjectedAssistantMessage(""), stopReason: "error" as const };
    expect(canRetry([createUserMessage("q"), failed])).toBe(true);
    expect(canRetry([createUserMessage("q"), createInjectedAssistantMessage("fine")])).toBe(false);
    expect(canRetry([failed, createUserMessage("q")])).toBe(false);
  });
});

describe("placeMarkers", () => {
  it("puts each marker after the shown item of the fact it follows, or of the nearest shown one before", () => {
    const items = [1, 2, 5].map((index) => ({ index, message: createUserMessage(`m${index}`) }));
    const marker = (id: string) => ({ id, text: id });
    const placed = placeMarkers(items, [
      { afterFact: -1, marker: marker("before all") },
      { afterFact: 0, marker: marker("after the prompt") },
      { afterFact: 2, marker: marker("after 2") },
      { afterFact: 3, marker: marker("after a result shown in 2") },
      { afterFact: 5, marker: marker("after 5") },
      { afterFact: 9, marker: marker("at the end") },
    ]);
    expect(placed.leading.map((item) => item.id)).toEqual(["before all", "after the prompt"]);
    expect(
      Object.fromEntries([...placed.after].map(([index, list]) => [index, list.map((m) => m.id)])),
    ).toEqual({
      2: ["after 2", "after a result shown in 2"],
      5: ["after 5", "at the end"],
    });
  });
});
