import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../../storage/records.ts";
import {
  buildVariantRequest,
  seedDraft,
  VARIANT_MESSAGES_LIMIT_CHARS,
  type VariantDraft,
} from "./variant-draft.ts";

const messages: Message[] = [
  {
    role: "system",
    content: "You are terse.",
    toolsAdded: [{ name: "lookup", description: "Looks up.", parameters: { type: "object" } }],
    timestamp: 1,
  },
  { role: "user", content: "hello", timestamp: 2 },
];
const call = {
  provider: "mirror",
  modelId: "mirror-instant",
  options: { temperature: 0.3, maxTokens: 500, reasoning: "low", metadata: { pace: "x" } },
} as unknown as CallRecord;

const build = (changes: Partial<VariantDraft>) =>
  buildVariantRequest({ ...seedDraft(call, messages), ...changes }, call.options);

describe("a re-run's draft, seeded from a recorded call", () => {
  it("sends exactly what the call sent when nothing is changed", () => {
    const draft = seedDraft(call, messages);
    expect(draft).toMatchObject({
      systemPrompt: "You are terse.",
      reasoning: "low",
      temperature: "0.3",
      maxTokens: "500",
    });
    const built = buildVariantRequest(draft, call.options);
    expect(built).toEqual({
      ok: true,
      request: { provider: "mirror", modelId: "mirror-instant", messages, options: call.options },
    });
  });

  it("changes only the leading system message's text when the prompt is edited, and only the options changed", () => {
    const built = build({
      systemPrompt: "You are verbose.",
      temperature: "",
      reasoning: "",
      maxTokens: "12",
    });
    if (!built.ok) throw new Error(JSON.stringify(built.problems));
    expect(built.request.messages[0]).toEqual({ ...messages[0], content: "You are verbose." });
    expect(built.request.messages[1]).toEqual(messages[1]);
    expect(built.request.options).toEqual({ maxTokens: 12, metadata: { pace: "x" } });
  });

  it("refuses each bad part with a reason naming it", () => {
    const problems = (changes: Partial<VariantDraft>) => {
      const built = build(changes);
      return built.ok ? [] : built.problems.map((problem) => `${problem.field}: ${problem.message}`);
    };
    expect(problems({ messagesJson: "[{" })[0]).toMatch(/^messages: The messages are not valid JSON/);
    expect(problems({ messagesJson: "{}" })).toEqual([
      "messages: The messages must be a JSON array of messages.",
    ]);
    expect(problems({ messagesJson: "[]" })).toEqual(["messages: A call needs at least one message."]);
    expect(
      problems({ messagesJson: '[{"role": "notification", "text": "x", "timestamp": 1}]' })[0],
    ).toContain(
      'Message 1: a call sends only system, user, assistant, toolResult messages (this one\'s role is "notification")',
    );
    expect(problems({ messagesJson: '[{"role": "user", "content": 7, "timestamp": 1}]' })[0]).toMatch(
      /^messages: Message 1: /,
    );
    expect(problems({ temperature: "9" })).toEqual(["temperature: Temperature must be between 0 and 2."]);
    expect(problems({ maxTokens: "many" })).toEqual(["maxTokens: Max tokens must be a number."]);
    expect(problems({ maxTokens: "1.5" })[0]).toMatch(/^maxTokens: /);
    expect(problems({ messagesJson: '[{"role": "user", "content": "x", "timestamp": 1}]' })).toEqual([
      "systemPrompt: The messages no longer start with a system message: put the prompt in the messages' JSON.",
    ]);
    const deep = "[".repeat(500) + "]".repeat(500);
    expect(
      problems({ messagesJson: `[{"role": "user", "content": "x", "timestamp": 1, "deep": ${deep}}]` })[0],
    ).toMatch(/nest/);
    const huge = JSON.stringify([
      { role: "user", content: "x".repeat(VARIANT_MESSAGES_LIMIT_CHARS), timestamp: 1 },
    ]);
    expect(problems({ messagesJson: huge })[0]).toMatch(/characters of JSON; a re-run takes at most/);
  });
});
