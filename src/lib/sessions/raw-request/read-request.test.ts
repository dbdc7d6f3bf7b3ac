import type { AssistantMessage, Context, Message, Tool, ToolCall } from "@earendil-works/pi-ai";
import { stream as anthropicMessages } from "@earendil-works/pi-ai/api/anthropic-messages";
import { stream as googleGenerativeAi } from "@earendil-works/pi-ai/api/google-generative-ai";
import { stream as openAICompletions } from "@earendil-works/pi-ai/api/openai-completions";
import { stream as openAIResponses } from "@earendil-works/pi-ai/api/openai-responses";
import { normalizeContext } from "@earendil-works/pi-ai/utils/transcript";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capturePayload, type AnyStreamFunction } from "../../model-view/capture-payload.test-support.ts";
import { testModel } from "../../model-view/provider-fixtures.test-support.ts";
import { zeroUsage } from "../../../shared/usage.ts";
import { detectShapes, readRawRequest, rebuildRequest } from "./read-request.ts";
import type { RebuiltContext, RequestShape } from "./rebuilt.ts";

// Round trip through pi-ai's own adapters: a pi-ai Context is turned into each provider's request body by
// that provider's real adapter (stopped before sending), the body is read back by the importer, and the
// same prompt, messages and tools come out. What a wire format cannot carry is left out of the comparison
// and named: ids on Gemini before 3 (the importer gives them names), error flags on OpenAI's tool outputs.

interface Target {
  shape: RequestShape;
  stream: AnyStreamFunction;
  provider: string;
  model: string;
  /** The wire format carries tool-call ids / a tool result's error flag. */
  ids: boolean;
  errors: boolean;
}

const TARGETS: Target[] = [
  {
    shape: "openai-completions",
    stream: openAICompletions as AnyStreamFunction,
    provider: "openai",
    model: "gpt-4o-mini",
    ids: true,
    errors: false,
  },
  {
    shape: "openai-responses",
    stream: openAIResponses as AnyStreamFunction,
    provider: "openai",
    model: "gpt-5",
    ids: true,
    errors: false,
  },
  {
    shape: "anthropic-messages",
    stream: anthropicMessages as AnyStreamFunction,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    ids: true,
    errors: true,
  },
  {
    shape: "google-generative-ai",
    stream: googleGenerativeAi as AnyStreamFunction,
    provider: "google",
    model: "gemini-2.5-flash",
    ids: false,
    errors: true,
  },
];

const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.?!']{0,24}[A-Za-z0-9.?!]$/);
const TOOLS: Tool[] = [
  {
    name: "get_time",
    description: "The current time in a time zone.",
    parameters: { type: "object", properties: { tz: { type: "string" } }, required: ["tz"] },
  },
  {
    name: "calculate",
    description: "Arithmetic.",
    parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
  },
];

/** A conversation: turns of a user message, a reply (text and/or tool calls), and a result per call. */
const conversation = fc
  .array(
    fc.record({
      user: fc.array(word, { minLength: 1, maxLength: 2 }),
      text: fc.option(word, { nil: undefined }),
      calls: fc.array(
        fc.record({ tool: fc.constantFrom(...TOOLS), arg: word, result: word, isError: fc.boolean() }),
        {
          maxLength: 2,
        },
      ),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((turns) => {
    let next = 0;
    const messages: Message[] = [];
    for (const turn of turns) {
      messages.push({
        role: "user",
        content: turn.user.map((text) => ({ type: "text" as const, text })),
        timestamp: 0,
      });
      const calls = turn.calls.map((call) => ({ ...call, id: `call_${++next}` }));
      const content: AssistantMessage["content"] = [
        ...(turn.text !== undefined || calls.length === 0
          ? [{ type: "text" as const, text: turn.text ?? "ok" }]
          : []),
        ...calls.map((call): ToolCall => ({
          type: "toolCall",
          id: call.id,
          name: call.tool.name,
          arguments: call.tool.name === "get_time" ? { tz: call.arg } : { expression: call.arg },
        })),
      ];
      messages.push({
        role: "assistant",
        content,
        api: "openai-completions",
        provider: "elsewhere",
        model: "m",
        usage: zeroUsage(),
        stopReason: calls.length > 0 ? "toolUse" : "stop",
        timestamp: 0,
      });
      for (const call of calls)
        messages.push({
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.tool.name,
          content: [{ type: "text", text: call.result }],
          isError: call.isError,
          timestamp: 0,
        });
    }
    return messages;
  });

const contextOf = fc.record({ systemPrompt: word, messages: conversation, tools: fc.subarray(TOOLS) });

/** What both sides are compared by: roles, texts, calls (ids by order where the wire drops them), results. */
function comparable(context: Pick<RebuiltContext, "systemPrompt" | "messages" | "tools">, target: Target) {
  const ids = new Map<string, string>();
  const idOf = (id: string) => (target.ids ? id : (ids.get(id) ?? ids.set(id, `#${ids.size + 1}`).get(id)));
  return {
    systemPrompt: context.systemPrompt,
    tools: context.tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    messages: context.messages.map((message) => {
      switch (message.role) {
        case "user":
          return {
            role: "user",
            content:
              typeof message.content === "string"
                ? [{ type: "text", text: message.content }]
                : message.content,
          };
        case "assistant":
          return {
            role: "assistant",
            content: message.content.map((part) =>
              part.type === "toolCall"
                ? { type: "toolCall", id: idOf(part.id), name: part.name, arguments: part.arguments }
                : part,
            ),
          };
        case "toolResult":
          return {
            role: "toolResult",
            toolCallId: idOf(message.toolCallId),
            toolName: message.toolName,
            content: message.content,
            isError: target.errors ? message.isError : undefined,
          };
        case "system":
          return { role: "system", content: message.content };
      }
    }),
  };
}

async function bodyOf(target: Target, context: Context): Promise<Record<string, unknown>> {
  const model = testModel(target.shape, target.provider, target.model, { input: ["text", "image"] });
  return (await capturePayload(target.stream, model, normalizeContext(context).messages)) as Record<
    string,
    unknown
  >;
}

describe("a request body read back into pi-ai's types", () => {
  it.each(TARGETS)("round-trips through pi-ai's $shape adapter", async (target) => {
    await fc.assert(
      fc.asyncProperty(contextOf, async (context) => {
        const body = await bodyOf(target, context);
        expect(detectShapes(body)[0]).toBe(target.shape);
        const rebuilt = rebuildRequest(body, target.shape);
        expect(comparable(rebuilt.context, target)).toEqual(comparable(context, target));
        // Only what this wire format has and the model view has not: nothing in the conversation.
        expect(rebuilt.unmapped.filter((item) => !item.includes("is given"))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it("keeps an image of a user message, inline, on each shape", async () => {
    const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
    const context: Context = {
      systemPrompt: "Look.",
      messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, image], timestamp: 0 }],
    };
    for (const target of TARGETS) {
      const rebuilt = rebuildRequest(await bodyOf(target, context), target.shape);
      expect(rebuilt.context.messages[0], target.shape).toMatchObject({
        role: "user",
        content: [{ type: "text" }, image],
      });
    }
  });
});

describe("reading a pasted body", () => {
  it("refuses what is not a request, saying what it is", () => {
    expect(readRawRequest("")).toMatchObject({
      ok: false,
      problem: "Paste a request body (JSON) or choose a file.",
    });
    expect(readRawRequest("{oops")).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^The request body is not JSON: /),
    });
    expect(readRawRequest("[1, 2]")).toMatchObject({
      ok: false,
      problem: "The request body is a list; a request body is a JSON object.",
    });
    expect(readRawRequest('"text"')).toMatchObject({
      ok: false,
      problem: "The request body is a string; a request body is a JSON object.",
    });
    expect(readRawRequest('{"prompt": "hi", "model": "x"}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining("Its fields: prompt, model"),
    });
  });

  it("refuses a body over the limit before parsing it, naming the limit and its variable", () => {
    const body = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(2_000) }] });
    expect(readRawRequest(body, 1_024)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(
        /^The request body is 2(\.\d)? kB; at most 1(\.\d)? kB is read \(VITE_RAW_REQUEST_MAX_BYTES\)\.$/,
      ),
    });
  });

  it("refuses a body nested too deeply, without overflowing", () => {
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const read = readRawRequest(`{"messages": [], "x": ${deep}}`);
    expect(read).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^The request body nests more than \d+ levels deep/),
    });
  });

  it("says when a body could be either of two shapes, the likelier first", () => {
    const plain = JSON.stringify({
      model: "m",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(readRawRequest(plain)).toMatchObject({
      ok: true,
      shapes: ["openai-completions", "anthropic-messages"],
    });
  });

  it("lists what it cannot map and keeps wrong types out of the messages", () => {
    const body = {
      model: "gpt-4o",
      temperature: 0.2,
      mystery: true,
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "hi" }, { type: "input_audio", input_audio: {} }, 42],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{not json" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "done" },
        { role: "critic", content: "?" },
        "stray",
      ],
      tools: [{ type: "web_search" }],
    };
    const rebuilt = rebuildRequest(body, "openai-completions");
    expect(rebuilt.context.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
    ]);
    expect(rebuilt.context.messages[1]).toMatchObject({
      content: [{ type: "toolCall", name: "f", arguments: {}, argumentsError: "not JSON: {not json" }],
    });
    expect(rebuilt.context.messages[2]).toMatchObject({ toolName: "f" });
    expect(rebuilt.settings).toEqual({ model: "gpt-4o", temperature: 0.2 });
    expect(rebuilt.unmapped).toEqual([
      `messages[0].content[1]: a "input_audio" part; pi-ai's messages have no such part, left out`,
      "messages[0].content[2]: a number; left out",
      'messages[3]: a message of role "critic", which pi-ai has no type for; left out',
      "messages[4]: a string, not a message; left out",
      `tools[0]: a "web_search" part, not a function tool; pi-ai's tools are functions, left out`,
      "mystery: a field this shape's reader does not know; kept in the payload, not in the model view",
    ]);
  });
});
