import type { AssistantMessage, Message, SystemMessage, ToolResultMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { clockTool, replyOf, testModel } from "./provider-fixtures.test-support.ts";
import { rewriteChanges, sameSystemPrompt } from "./message-rewrites.ts";
import { UNCHANGED } from "./provider-changes.ts";

const model = testModel("openai-responses", "github-copilot", "gpt-5");

/** Results of one call: a rewrite keeps the content itself, so every copy shares it. */
const resultContent: ToolResultMessage["content"] = [{ type: "text", text: "12:00" }];
const result = (toolCallId: string): ToolResultMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: clockTool.name,
  content: resultContent,
  isError: false,
  timestamp: 3,
});

describe("rewriteChanges", () => {
  it("reads a copy with every field but its content the same as unchanged, and any other field as another message", () => {
    const question: Message = { role: "user", content: "Time?", timestamp: 1 };
    expect(rewriteChanges(question, { ...question }, new Map())).toBe(UNCHANGED);
    expect(rewriteChanges(question, { ...question, timestamp: 2 }, new Map())).toBeUndefined();
    expect(rewriteChanges(question, { ...question, role: "system" } as Message, new Map())).toBeUndefined();
  });

  it("says what a rewritten reply lost, and learns its ids for the results that follow", () => {
    // pi-ai rebuilds a call around the very same arguments object.
    const noArguments = {};
    const before: AssistantMessage = replyOf(
      model,
      [
        { type: "thinking", thinking: "Let me look.", thinkingSignature: "sig" },
        { type: "text", text: "Checking.", textSignature: "sig" },
        { type: "toolCall", id: "call_1|fc+2", name: clockTool.name, arguments: noArguments },
      ],
      2,
    );
    const after: AssistantMessage = {
      ...before,
      content: [
        { type: "text", text: "Checking." },
        { type: "toolCall", id: "call_1_fc_2", name: clockTool.name, arguments: noArguments },
      ],
    };
    const rewrites = new Map<string, string>();
    expect(rewriteChanges(before, after, rewrites)).toEqual([
      { kind: "thinking-dropped", blocks: 1, reason: "another-model" },
      { kind: "tool-call-id-rewritten", from: "call_1|fc+2", to: "call_1_fc_2" },
      { kind: "signature-stripped", blocks: 1 },
    ]);
    expect(rewriteChanges(result("call_1|fc+2"), result("call_1_fc_2"), rewrites)).toEqual([
      { kind: "tool-call-id-rewritten", from: "call_1|fc+2", to: "call_1_fc_2" },
    ]);
    // An id nobody's call was rewritten to: not this result.
    expect(rewriteChanges(result("call_1|fc+2"), result("call_9"), rewrites)).toBeUndefined();
  });

  it("is no rewrite when a reply's text changed", () => {
    const before = replyOf(model, [{ type: "text", text: "Noon." }], 4);
    const after = { ...before, content: [{ type: "text" as const, text: "Midnight." }] };
    expect(rewriteChanges(before, after, new Map())).toBeUndefined();
  });

  it("counts the images a run of them lost to one note", () => {
    const text = { type: "text", text: "Look" } as const;
    const image = { type: "image", data: "AAAA", mimeType: "image/png" } as const;
    const note = { type: "text", text: "(image omitted: model does not support images)" } as const;
    const before: Message = { role: "user", content: [text, image, image], timestamp: 1 };
    expect(rewriteChanges(before, { ...before, content: [text, note] }, new Map())).toEqual([
      { kind: "images-downgraded", images: 2 },
    ]);
    expect(rewriteChanges(before, { ...before, content: [note, text] }, new Map())).toBeUndefined();
  });
});

describe("sameSystemPrompt", () => {
  const prompt: SystemMessage = {
    role: "system",
    content: "You are terse.",
    toolsAdded: [clockTool],
    timestamp: 0,
  };

  it("holds for the same text and tools however the text is stored", () => {
    const rebuilt: SystemMessage = { ...prompt, content: [{ type: "text", text: "You are terse." }] };
    expect(sameSystemPrompt(prompt, rebuilt)).toBe(true);
  });

  it("fails for other text, other tools, or tools removed", () => {
    expect(sameSystemPrompt(prompt, { ...prompt, content: "You are chatty." })).toBe(false);
    expect(sameSystemPrompt(prompt, { ...prompt, toolsAdded: [] })).toBe(false);
    expect(sameSystemPrompt({ ...prompt, toolsRemoved: [{ name: "get_time" }] }, prompt)).toBe(false);
  });
});
