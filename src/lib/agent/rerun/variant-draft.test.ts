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

const build = (changes: Partial<VariantDraft>, api = "mirror") =>
  buildVariantRequest({ ...seedDraft(call, messages), ...changes }, call.options, api);

describe("a re-run's draft, seeded from a recorded call", () => {
  it("sends exactly what the call sent when nothing is changed", () => {
    const draft = seedDraft(call, messages);
    expect(draft).toMatchObject({
      systemPrompt: "You are terse.",
      reasoning: "low",
      sampling: { temperature: 0.3, maxTokens: 500 },
    });
    const built = buildVariantRequest(draft, call.options, "mirror");
    expect(built).toEqual({
      ok: true,
      request: { provider: "mirror", modelId: "mirror-instant", messages, options: call.options },
    });
  });

  it("changes only the leading system message's text when the prompt is edited, and only the options changed", () => {
    const built = build({
      systemPrompt: "You are verbose.",
      reasoning: "",
      sampling: { maxTokens: 12 },
    });
    if (!built.ok) throw new Error(JSON.stringify(built.problems));
    expect(built.request.messages[0]).toEqual({ ...messages[0], content: "You are verbose." });
    expect(built.request.messages[1]).toEqual(messages[1]);
    expect(built.request.options).toEqual({ maxTokens: 12, metadata: { pace: "x" } });
  });

  it("seeds the sampling parameters the call sent, and sends those the chosen model's API takes", () => {
    const withParams = {
      ...call,
      options: { ...call.options, samplingParams: { top_k: 40, seed: 7 } },
    } as unknown as CallRecord;
    const draft = seedDraft(withParams, messages);
    expect(draft.sampling).toEqual({ temperature: 0.3, maxTokens: 500, params: { top_k: 40, seed: 7 } });
    const completions = buildVariantRequest(draft, withParams.options, "openai-completions");
    if (!completions.ok) throw new Error(JSON.stringify(completions.problems));
    expect(completions.request.options.samplingParams).toEqual({ top_k: 40, seed: 7 });
    // A model whose API takes neither gets neither, as the session's runs would send it.
    const mirror = buildVariantRequest(draft, withParams.options, "mirror");
    if (!mirror.ok) throw new Error(JSON.stringify(mirror.problems));
    expect(mirror.request.options).not.toHaveProperty("samplingParams");
    expect(mirror.request.options).toMatchObject({ temperature: 0.3, maxTokens: 500 });
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
