import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import {
  createCustomMessage,
  createInjectedAssistantMessage,
  createUserMessage,
} from "../messages/factories.ts";
import { viewPasses } from "../agent/view-passes.ts";
import {
  canRetry,
  ChatLayouter,
  layoutAhead,
  layoutChat,
  placeMarkers,
  type ChatLayout,
} from "./chat-items.ts";

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

describe("ChatLayouter", () => {
  const callOf = (id: string): AgentMessage => ({
    ...createInjectedAssistantMessage(""),
    content: [{ type: "toolCall" as const, id, name: "calculate", arguments: {} }],
  });
  const resultOf = (id: string): AgentMessage => ({
    role: "toolResult",
    toolCallId: id,
    toolName: "calculate",
    content: [],
    isError: false,
    timestamp: 1,
  });
  const comparable = ({ items, results, hiddenCount }: ChatLayout) => ({
    items,
    results: [...results],
    hiddenCount,
  });

  it("equals a full layout through appends, results, edits and shorter paths", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const layouter = new ChatLayouter();
    let facts: AgentMessage[] = [{ role: "system", content: "prompt", timestamp: 0 }];
    let calls = 0;
    let laidOut = 0;
    for (let step = 0; step < 400; step++) {
      const roll = random();
      if (roll < 0.35) facts = [...facts, createUserMessage(`q${step}`)];
      else if (roll < 0.55) facts = [...facts, callOf(`c${++calls}`)];
      else if (roll < 0.7) facts = [...facts, resultOf(`c${Math.ceil(random() * calls + 1)}`)];
      else if (roll < 0.78) facts = [...facts, createCustomMessage("note", "n", random() < 0.5)];
      else if (roll < 0.86 && facts.length > 2)
        facts = facts.slice(0, 1 + Math.floor(random() * facts.length));
      else if (roll < 0.94 && facts.length > 2) {
        // An edited fact is a new object in place of the old one.
        const at = 1 + Math.floor(random() * (facts.length - 1));
        facts = facts.map((fact, index) => (index === at ? { ...fact } : fact));
      } else facts = [...facts];
      const before = layouter.layout(facts);
      expect(comparable(before), `step ${step}`).toEqual(comparable(layoutChat(facts)));
      laidOut += before.items.length;
    }
    expect(laidOut).toBeGreaterThan(1_000);
  });

  it("gives the cards a new map of results when a result arrives, and the same layout for the same facts", () => {
    const layouter = new ChatLayouter();
    const facts: AgentMessage[] = [createUserMessage("q"), callOf("c1")];
    const first = layouter.layout(facts);
    expect(layouter.layout(facts)).toBe(first);
    const answered = layouter.layout([...facts, resultOf("c1")]);
    expect(answered.results).not.toBe(first.results);
    expect(answered.results.get("c1")?.index).toBe(2);
    expect(first.results.has("c1")).toBe(false);
  });
});

describe("layoutAhead", () => {
  it("is a pass made before a large session's first render, whose layout the first layouter of those facts takes", () => {
    expect(viewPasses).toContain(layoutAhead);
    const facts = [createUserMessage("q"), createInjectedAssistantMessage("a"), createUserMessage("q2")];
    const made = layoutAhead(facts);
    expect(made).toEqual(layoutChat(facts));
    // Taken: the render reads the very layout made ahead, and a second layouter makes its own.
    expect(new ChatLayouter().layout(facts)).toBe(made);
    const second = new ChatLayouter().layout(facts);
    expect(second).toEqual(made);
    expect(second).not.toBe(made);
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
