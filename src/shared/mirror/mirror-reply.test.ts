import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../usage.ts";
import { mirrorReply } from "./mirror-reply.ts";

const tools = [
  { name: "current_time", description: "time", parameters: {} },
  { name: "calculate", description: "math", parameters: {} },
  { name: "save_note", description: "note", parameters: {} },
];
const system: Message = { role: "system", content: "Be brief.", toolsAdded: tools, timestamp: 0 };
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const textOf = (turn: ReturnType<typeof mirrorReply>) =>
  turn.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("mirrorReply", () => {
  it("states the number of messages, their roles in order, and quotes the last user message", () => {
    const turn = mirrorReply([system, user("hello")], { thinking: false });
    expect(turn.stopReason).toBe("stop");
    expect(textOf(turn)).toBe(
      "I received 2 messages: system, user.\n\nThe last user message was:\n\n> hello",
    );
  });

  it("quotes every line of a multi-line message", () => {
    expect(textOf(mirrorReply([user("a\nb")], { thinking: false }))).toContain("> a\n> b");
  });

  it("is deterministic: the same context gives the same reply, tool-call ids included", () => {
    const context = [system, user("what time is it? and 2+2")];
    expect(mirrorReply(context, { thinking: true })).toEqual(mirrorReply(context, { thinking: true }));
  });

  it("calls current_time when asked for the time, with an id derived from the context", () => {
    const turn = mirrorReply([system, user("What time is it?")], { thinking: false });
    expect(turn.stopReason).toBe("toolUse");
    expect(turn.content.filter((block) => block.type === "toolCall")).toEqual([
      { type: "toolCall", id: "mirror_2_0", name: "current_time", arguments: {} },
    ]);
  });

  it("calls calculate with the arithmetic it finds, parentheses balanced", () => {
    const turn = mirrorReply([system, user("please compute 12 * (3 + 4)")], { thinking: false });
    const call = turn.content.find((block) => block.type === "toolCall");
    expect(call).toMatchObject({ name: "calculate", arguments: { expression: "12 * (3 + 4)" } });
  });

  it("ignores numbers that are not arithmetic", () => {
    const turn = mirrorReply([system, user("I have 3 cats and 2 dogs")], { thinking: false });
    expect(turn.stopReason).toBe("stop");
  });

  it("calls save_note with the text after the colon", () => {
    const turn = mirrorReply([system, user("Save a note: buy milk at 5")], { thinking: false });
    const calls = turn.content.filter((block) => block.type === "toolCall");
    expect(calls).toEqual([
      { type: "toolCall", id: "mirror_2_0", name: "save_note", arguments: { text: "buy milk at 5" } },
    ]);
  });

  it("does not call tools the request does not declare", () => {
    const turn = mirrorReply([user("what time is it, and what is 2 + 2?")], { thinking: false });
    expect(turn.stopReason).toBe("stop");
    expect(turn.content.some((block) => block.type === "toolCall")).toBe(false);
  });

  it("reports tool results when the request ends with them", () => {
    const messages: Message[] = [
      system,
      user("2+2"),
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "c1", name: "calculate", arguments: { expression: "2+2" } }],
        api: "mirror",
        provider: "mirror",
        model: "mirror",
        usage: zeroUsage(),
        stopReason: "toolUse",
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "calculate",
        content: [{ type: "text", text: "2+2 = 4" }],
        isError: false,
        timestamp: 3,
      },
    ];
    const turn = mirrorReply(messages, { thinking: false });
    expect(turn.stopReason).toBe("stop");
    expect(textOf(turn)).toBe(
      "I received 4 messages: system, user, assistant, toolResult.\n\n- `calculate` returned: 2+2 = 4",
    );
  });

  it("reproduces every message as text when asked to show the context", () => {
    const text = textOf(
      mirrorReply([system, user("first"), user("please show context")], { thinking: false }),
    );
    expect(text).toContain(
      "**1. system**\n```text\nBe brief.\n[tools added] current_time, calculate, save_note\n```",
    );
    expect(text).toContain("**2. user**\n```text\nfirst\n```");
    expect(text).toContain("**3. user**\n```text\nplease show context\n```");
  });

  it("fences quoted content with more backticks than it contains", () => {
    const text = textOf(mirrorReply([user("```js\nx\n```\nshow context")], { thinking: false }));
    expect(text).toContain("````text\n```js");
  });

  it("adds a thinking block first when thinking is on", () => {
    const turn = mirrorReply([system, user("hi")], { thinking: true });
    expect(turn.content[0]?.type).toBe("thinking");
  });

  describe("calls any tool it is given when asked by name", () => {
    const lookup = { name: "lookup_order", description: "order", parameters: {} };
    const withLookup: Message = { ...system, toolsAdded: [...tools, lookup] };

    it('with the JSON object after "with" as its arguments', () => {
      const turn = mirrorReply(
        [withLookup, user('call lookup_order with {"id": 7, "note": "a } in a string"}')],
        {
          thinking: false,
        },
      );
      expect(turn.stopReason).toBe("toolUse");
      expect(turn.content.filter((block) => block.type === "toolCall")).toEqual([
        {
          type: "toolCall",
          id: "mirror_2_0",
          name: "lookup_order",
          arguments: { id: 7, note: "a } in a string" },
        },
      ]);
    });

    it("several in one message, without arguments when none are given", () => {
      const turn = mirrorReply([withLookup, user("call `lookup_order`, then call current_time")], {
        thinking: false,
      });
      expect(
        turn.content.flatMap((block) => (block.type === "toolCall" ? [[block.name, block.arguments]] : [])),
      ).toEqual([
        ["lookup_order", {}],
        ["current_time", {}],
      ]);
    });

    it("says so when the arguments are not a JSON object, and calls nothing", () => {
      const turn = mirrorReply([withLookup, user("call lookup_order with {id: 7}")], { thinking: false });
      expect(turn.stopReason).toBe("stop");
      expect(textOf(turn)).toContain(
        'I could not call `lookup_order`: the arguments after "with" are not a JSON object.',
      );
    });

    it("never calls a tool the request does not declare", () => {
      const turn = mirrorReply([system, user('call lookup_order with {"id": 7}')], { thinking: false });
      expect(turn.stopReason).toBe("stop");
      const removed: Message = {
        role: "system",
        content: "",
        toolsRemoved: [{ name: "lookup_order" }],
        timestamp: 2,
      };
      const after = mirrorReply([withLookup, removed, user("call lookup_order")], { thinking: false });
      expect(after.stopReason).toBe("stop");
    });
  });
});
