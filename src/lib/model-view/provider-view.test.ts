import type {
  Api,
  AssistantMessage,
  Message,
  Model,
  StreamFunction,
  StreamOptions,
} from "@earendil-works/pi-ai";
import { stream as anthropicMessages } from "@earendil-works/pi-ai/api/anthropic-messages";
import { stream as azureOpenAIResponses } from "@earendil-works/pi-ai/api/azure-openai-responses";
import { stream as bedrockConverseStream } from "@earendil-works/pi-ai/api/bedrock-converse-stream";
import { stream as googleGenerativeAi } from "@earendil-works/pi-ai/api/google-generative-ai";
import { stream as mistralConversations } from "@earendil-works/pi-ai/api/mistral-conversations";
import { stream as openAICodexResponses } from "@earendil-works/pi-ai/api/openai-codex-responses";
import { stream as openAICompletions } from "@earendil-works/pi-ai/api/openai-completions";
import { stream as openAIResponses } from "@earendil-works/pi-ai/api/openai-responses";
import { getSystemMessageText, renderSystemMessageUpdate } from "@earendil-works/pi-ai/utils/text";
import { normalizeContext } from "@earendil-works/pi-ai/utils/transcript";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import {
  AT,
  clockTool,
  ID,
  richSession,
  SIGNATURE,
  TEXT,
  testModel,
} from "./provider-fixtures.test-support.ts";
import {
  changeLabel,
  describeChange,
  PROVIDER_CHANGE_LABELS,
  providerView,
  summarizeProviderView,
  traceProviderTransform,
  type ProviderChange,
  type ProviderView,
} from "./provider-view.ts";

const anthropic = testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5");
const anthropicInPlace = testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5", {
  compat: { supportsMidConvoSystemMessages: true },
});

const kinds = (changes: readonly ProviderChange[] | undefined) => changes?.map((change) => change.kind);
const sourceIndices = (view: ProviderView) => Array.from(view.sourceOf);
const targetIndices = (view: ProviderView) => Array.from(view.targetOf);

function reply(model: Model<Api>, content: AssistantMessage["content"], timestamp: number): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: zeroUsage(),
    stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
    timestamp,
  };
}

describe("providerView on a list the transform leaves alone", () => {
  const vision = testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5", {
    input: ["text", "image"],
  });
  const unknownRole = {
    role: "bookmark",
    content: "kept for the session",
    timestamp: 6,
  } as unknown as Message;
  const messages: Message[] = [
    { role: "system", content: "You are terse.", toolsAdded: [clockTool], timestamp: 0 },
    {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      timestamp: 1,
    },
    reply(vision, [{ type: "toolCall", id: "toolu_1", name: "get_time", arguments: {} }], 2),
    {
      role: "toolResult",
      toolCallId: "toolu_1",
      toolName: "get_time",
      content: [{ type: "text", text: "12:00" }],
      isError: false,
      timestamp: 3,
    },
    reply(vision, [{ type: "text", text: "Noon.", textSignature: "own" }], 4),
    unknownRole,
  ];

  it("reports every message of both lists unchanged, each linked to its own index", () => {
    const view = providerView(messages, vision);
    expect(view.messages.map((message) => message.role)).toEqual(messages.map((message) => message.role));
    expect(view.providerChanges.map(kinds)).toEqual(messages.map(() => ["unchanged"]));
    expect(view.modelChanges.map(kinds)).toEqual(messages.map(() => ["unchanged"]));
    expect(sourceIndices(view)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(targetIndices(view)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(view.messages[5]).toBe(unknownRole);
    expect(summarizeProviderView(view)).toBe("6 model messages → 6 provider messages");
  });

  it("leaves a pi-messages list exactly as it is: a pi server transforms it on its side", () => {
    const server = testModel("pi-messages", "radius", "balanced");
    const withAborted = [...messages, { ...reply(server, [], 7), stopReason: "aborted" as const }];
    const view = providerView(withAborted, server);
    expect(view.messages).toEqual(withAborted);
    expect(view.modelChanges.map(kinds)).toEqual(withAborted.map(() => ["unchanged"]));
  });

  it("drops an aborted reply for an API pi-ai does not know, and rewrites no id", () => {
    const faux = testModel("mirror-api", "mirror", "mirror");
    const foreign = reply(
      anthropic,
      [{ type: "toolCall", id: ID.pipeShort, name: "get_time", arguments: {} }],
      7,
    );
    const aborted = { ...reply(faux, [{ type: "text", text: "Hel" }], 9), stopReason: "aborted" as const };
    const question: Message = { role: "user", content: "Time?", timestamp: 1 };
    const view = providerView([question, foreign, aborted], faux);
    expect(view.modelChanges.map(kinds)).toEqual([["unchanged"], ["unchanged"], ["dropped"]]);
    expect(view.providerChanges.map(kinds)).toEqual([["unchanged"], ["unchanged"], ["placeholder-added"]]);
    expect(view.messages[2]).toMatchObject({ role: "toolResult", toolCallId: ID.pipeShort });
  });
});

describe("providerView on a session that exercises every rule (Anthropic, no mid-conversation system messages)", () => {
  const session = richSession(anthropic);
  const view = providerView(session, anthropic);
  const changesOf = (index: number) => view.modelChanges[index];

  it("drops the stopped and the failed reply, saying which", () => {
    expect(changesOf(AT.aborted)).toEqual([{ kind: "dropped", reason: "aborted" }]);
    expect(changesOf(AT.errored)).toEqual([{ kind: "dropped", reason: "error" }]);
    expect(view.targetOf[AT.aborted]).toBe(-1);
    expect(view.targetOf[AT.errored]).toBe(-1);
  });

  it("drops another model's thinking, strips its signatures and rewrites its ids into Anthropic's alphabet", () => {
    expect(changesOf(AT.copilot)).toEqual([
      { kind: "thinking-dropped", blocks: 1, reason: "another-model" },
      { kind: "tool-call-id-rewritten", from: ID.pipeShort, to: "call_abc_fc_very_long_id__" },
      { kind: "tool-call-id-rewritten", from: ID.pipeLong, to: `call_xyz_fc_${"Ab__".repeat(13)}` },
      { kind: "signature-stripped", blocks: 2 },
    ]);
    expect(changesOf(AT.copilotResults[0])).toEqual([
      { kind: "tool-call-id-rewritten", from: ID.pipeShort, to: "call_abc_fc_very_long_id__" },
    ]);
    expect(changesOf(AT.opus)).toEqual([
      { kind: "tool-call-id-rewritten", from: ID.longPlain, to: ID.longPlain.slice(0, 64) },
      { kind: "tool-call-id-rewritten", from: ID.dotted, to: "toolu_with_dots" },
    ]);
    expect(kinds(changesOf(AT.opusResults[2]))).toEqual(["unchanged"]);
    const sent = JSON.stringify(view.messages);
    for (const signature of Object.values(SIGNATURE)) expect(sent).not.toContain(signature);
  });

  it("drops an empty thinking block of the model itself, and replaces images for a model without image input", () => {
    expect(changesOf(AT.calls)).toEqual([{ kind: "thinking-dropped", blocks: 1, reason: "empty" }]);
    expect(changesOf(AT.image)).toEqual([{ kind: "images-downgraded", images: 1 }]);
    expect(changesOf(AT.firstResult)).toEqual([{ kind: "images-downgraded", images: 1 }]);
  });

  it("adds a placeholder result for the call left without one, pointing at that call", () => {
    const placeholder = view.providerChanges.findIndex((changes) => changes[0]?.kind === "placeholder-added");
    expect(view.sourceOf[placeholder]).toBe(-1);
    expect(view.providerChanges[placeholder]).toEqual([
      {
        kind: "placeholder-added",
        toolCallId: ID.unanswered,
        toolName: "get_time",
        callProviderIndex: view.targetOf[AT.calls],
        callModelIndex: AT.calls,
      },
    ]);
    expect(view.messages[placeholder - 1]).toBe(view.messages[view.targetOf[AT.firstResult] as number]);
  });

  it("rebuilds the leading system message from both system messages", () => {
    expect(view.providerChanges[0]).toEqual([{ kind: "system-merged", from: [AT.system, AT.midSystem] }]);
    expect(changesOf(AT.midSystem)).toEqual([{ kind: "system-folded", into: 0 }]);
    expect(view.targetOf[AT.midSystem]).toBe(0);
    expect(view.messages.filter((message) => message.role === "system")).toHaveLength(1);
  });

  it("links every provider message to its model-view message and back", () => {
    expect(sourceIndices(view)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 14, 16, -1, 17, 18]);
    view.sourceOf.forEach((source, position) => {
      if (source >= 0) expect(view.targetOf[source]).toBe(position);
    });
    expect(summarizeProviderView(view)).toBe(
      "19 model messages → 17 provider messages: 2 dropped, 1 folded into the system prompt, 1 added, 8 tool call ids rewritten",
    );
  });
});

describe("providerView with system messages kept in place", () => {
  it("holds a system message that came between a call and its result until after the results", () => {
    const view = providerView(richSession(anthropicInPlace), anthropicInPlace);
    const moved = view.targetOf[AT.midSystem] as number;
    expect(view.modelChanges[AT.midSystem]).toEqual([{ kind: "system-moved", heldPast: 1 }]);
    expect(view.providerChanges[moved]).toBe(view.modelChanges[AT.midSystem]);
    expect(view.messages[moved - 2]).toBe(view.messages[view.targetOf[AT.firstResult] as number]);
    expect(view.providerChanges[moved - 1]?.[0]?.kind).toBe("placeholder-added");
    expect(kinds(view.providerChanges[0])).toEqual(["unchanged"]);
  });

  it("cannot tell a system message held only past placeholders from one the placeholders went before", () => {
    // [call, system, user] becomes [call, placeholder, system, user] whether or not the system message
    // was held: the output is the same, so the system message is reported unchanged and the placeholder added.
    const messages: Message[] = [
      { role: "user", content: "Time?", timestamp: 1 },
      reply(anthropicInPlace, [{ type: "toolCall", id: "toolu_9", name: "get_time", arguments: {} }], 2),
      { role: "system", content: "Be brief.", timestamp: 3 },
      { role: "user", content: "Never mind", timestamp: 4 },
    ];
    const view = providerView(messages, anthropicInPlace);
    expect(view.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "system",
      "user",
    ]);
    expect(view.modelChanges.map(kinds)).toEqual(messages.map(() => ["unchanged"]));
    expect(kinds(view.providerChanges[2])).toEqual(["placeholder-added"]);
  });
});

describe("providerView on system messages collapsed into the leading one", () => {
  it("reports a single leading system message rebuilt into the same prompt and tools as unchanged", () => {
    const messages: Message[] = [
      {
        role: "system",
        content: [{ type: "text", text: "You are terse." }],
        sections: { style: "<style>plain</style>" },
        toolsAdded: [clockTool],
        timestamp: 0,
      },
      { role: "user", content: "Hi", timestamp: 1 },
    ];
    const view = providerView(messages, anthropic);
    expect(view.messages[0]).not.toBe(messages[0]);
    expect(view.providerChanges.map(kinds)).toEqual([["unchanged"], ["unchanged"]]);
  });

  it("says so when the only system message came later and now leads", () => {
    const messages: Message[] = [
      { role: "user", content: "Hi", timestamp: 1 },
      { role: "system", content: "Be brief.", toolsAdded: [clockTool], timestamp: 2 },
    ];
    const view = providerView(messages, anthropic);
    expect(view.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(view.providerChanges[0]).toEqual([{ kind: "system-merged", from: [1] }]);
    expect(view.modelChanges.map(kinds)).toEqual([["unchanged"], ["system-merged"]]);
    expect(sourceIndices(view)).toEqual([1, 0]);
  });
});

describe("providerView on content pi-ai reads in its own way", () => {
  it("adds no second note for images that follow a note saying so", () => {
    // pi-ai's own wording: a run of images right after it is dropped without another note.
    const note = { type: "text", text: "(image omitted: model does not support images)" } as const;
    const image = { type: "image", data: "AAAA", mimeType: "image/png" } as const;
    const after = { type: "text", text: "and this one" } as const;
    const messages: Message[] = [{ role: "user", content: [note, image, after], timestamp: 1 }];
    const view = providerView(messages, anthropic);
    expect(view.messages[0]?.content).toEqual([note, after]);
    expect(view.modelChanges[0]).toEqual([{ kind: "images-downgraded", images: 1 }]);
  });

  it("reads an absent content as empty and calls that unchanged, since the provider gets nothing either way", () => {
    const messages = [
      { role: "user", content: null, timestamp: 1 },
      { ...reply(anthropic, [], 2), content: null },
    ] as unknown as Message[];
    const view = providerView(messages, anthropic);
    expect(view.messages.map((message) => message.content)).toEqual([[], []]);
    expect(view.modelChanges.map(kinds)).toEqual([["unchanged"], ["unchanged"]]);
    expect(sourceIndices(view)).toEqual([0, 1]);
  });
});

describe("traceProviderTransform on outputs pi-ai 1.6 never produces", () => {
  const first: Message = { role: "user", content: "one", timestamp: 1 };
  const second: Message = { role: "user", content: "two", timestamp: 2 };
  const third: Message = { role: "user", content: "three", timestamp: 3 };

  it("reports a message moved, added or dropped without a known reason, rather than hiding it", () => {
    const added: Message = { role: "user", content: "new", timestamp: 9 };
    const view = traceProviderTransform([first, second, third], [second, first, added]);
    expect(view.providerChanges).toEqual([
      [{ kind: "unchanged" }],
      [{ kind: "reordered", heldPast: 1 }],
      [{ kind: "added" }],
    ]);
    expect(view.modelChanges[2]).toEqual([{ kind: "dropped", reason: "unexplained" }]);
    expect(sourceIndices(view)).toEqual([1, 0, -1]);
  });

  it("links the same object sent twice to its two occurrences", () => {
    const view = traceProviderTransform([first, first], [first, first]);
    expect(sourceIndices(view)).toEqual([0, 1]);
    expect(targetIndices(view)).toEqual([0, 1]);
  });

  it("keeps the results of a dropped reply, as pi-ai does", () => {
    const stopped = {
      ...reply(anthropic, [{ type: "toolCall", id: "toolu_x", name: "get_time", arguments: {} }], 2),
    };
    const messages: Message[] = [
      first,
      { ...stopped, stopReason: "aborted" },
      {
        role: "toolResult",
        toolCallId: "toolu_x",
        toolName: "get_time",
        content: [],
        isError: true,
        timestamp: 3,
      },
      second,
    ];
    const view = providerView(messages, anthropic);
    expect(view.modelChanges.map(kinds)).toEqual([["unchanged"], ["dropped"], ["unchanged"], ["unchanged"]]);
    expect(view.messages.map((message) => message.role)).toEqual(["user", "toolResult", "user"]);
  });
});

describe("change labels", () => {
  const samples: ProviderChange[] = [
    { kind: "unchanged" },
    { kind: "dropped", reason: "error" },
    { kind: "dropped", reason: "aborted" },
    { kind: "dropped", reason: "unexplained" },
    {
      kind: "placeholder-added",
      toolCallId: "toolu_1",
      toolName: "get_time",
      callProviderIndex: 2,
      callModelIndex: 3,
    },
    { kind: "thinking-dropped", blocks: 2, reason: "another-model" },
    { kind: "thinking-dropped", blocks: 1, reason: "empty" },
    { kind: "tool-call-id-rewritten", from: "call_1|fc_2", to: "call_1_fc_2" },
    { kind: "signature-stripped", blocks: 1 },
    { kind: "images-downgraded", images: 2 },
    { kind: "system-moved", heldPast: 1 },
    { kind: "system-merged", from: [0, 4] },
    { kind: "system-folded", into: 0 },
    { kind: "reordered", heldPast: 2 },
    { kind: "added" },
  ];

  it("has one label per kind and reason, and every change has one", () => {
    const used = new Set(samples.map(changeLabel));
    expect(used).toEqual(new Set(Object.values(PROVIDER_CHANGE_LABELS)));
    expect(changeLabel({ kind: "dropped", reason: "error" })).toBe("dropped: reply ended in error");
    expect(changeLabel({ kind: "dropped", reason: "aborted" })).toBe("dropped: aborted");
  });

  it("gives the particulars of a change", () => {
    expect(samples.map(describeChange)).toEqual([
      "unchanged",
      "dropped: reply ended in error",
      "dropped: aborted",
      "dropped by the provider transform",
      "placeholder result added for get_time (toolu_1)",
      "thinking from another model dropped (2 blocks)",
      "empty thinking dropped (1 block)",
      "tool call id rewritten: call_1|fc_2 → call_1_fc_2",
      "another model's signature stripped (1 block)",
      "images replaced by a note (model takes no images) (2 images)",
      "system message held until after the tool results (after 1 later message)",
      "system prompt rebuilt from the system messages (2 system messages)",
      "folded into the leading system prompt",
      "moved by the provider transform (after 2 later messages)",
      "added by the provider transform",
    ]);
  });
});

describe("providerView on a list the transform cannot read", () => {
  it("says which transform failed and why", () => {
    const broken = { ...reply(anthropic, [], 1), content: "not blocks" } as unknown as Message;
    const other = testModel("openai-completions", "groq", "llama");
    expect(() => providerView([broken], other)).toThrow(
      /^The openai-completions transform cannot read this list: /,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Conformance: the provider view against the request bodies pi-ai's real adapters build. Each adapter is
// called with the session above; `onPayload` (awaited before the request is made) keeps a copy of the body
// and aborts, so nothing is sent. The body is read back into one turn per message of the list the adapter
// converted, and compared with the provider view. What the adapters do after the transform (one user turn
// for consecutive tool results, the leading prompt in its own field, Mistral's "[tool error]" prefix, the
// Responses API pairing results by call id only) is undone by the readers below, one per wire format.
// ---------------------------------------------------------------------------------------------------------

interface Turn {
  role: "system" | "user" | "assistant" | "toolResult";
  text: string;
  ids: string[];
  images: number;
  thinking: number;
}

const turn = (role: Turn["role"], text: string, ids: string[] = [], images = 0, thinking = 0): Turn => ({
  role,
  text,
  ids,
  images,
  thinking,
});

type Content = Message["content"];
const textsOf = (content: Content): string[] =>
  typeof content === "string"
    ? [content]
    : content.flatMap((block) => (block.type === "text" ? [block.text] : []));
const countOf = (content: Content, type: string): number =>
  typeof content === "string" ? 0 : content.filter((block) => block.type === type).length;

/** The turns a provider view should come out as, one per message. */
function turnsOfView(messages: readonly Message[]): Turn[] {
  return messages.map((message, index) => {
    switch (message.role) {
      case "system":
        return turn(
          "system",
          index === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message),
        );
      case "user":
        return turn("user", textsOf(message.content).join("\n"), [], countOf(message.content, "image"));
      case "assistant":
        return turn(
          "assistant",
          textsOf(message.content).join(""),
          message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : [])),
          0,
          countOf(message.content, "thinking"),
        );
      case "toolResult":
        return turn("toolResult", textsOf(message.content).join("\n"), [message.toolCallId]);
    }
  });
}

/** A loose view of every wire format's parts: each reader picks the fields its format has. */
interface Part {
  type?: string;
  role?: string;
  text?: string;
  id?: string;
  content?: string | Part[] | null;
  [field: string]: unknown;
}

const partsOf = (value: unknown): Part[] => (Array.isArray(value) ? (value as Part[]) : []);
const textOfParts = (parts: Part[], separator: string): string =>
  parts
    .flatMap((part) => (typeof part.text === "string" && part.thought !== true ? [part.text] : []))
    .join(separator);
const stringOrParts = (content: Part["content"], separator: string): string =>
  typeof content === "string" ? content : textOfParts(partsOf(content), separator);

function readAnthropic(body: unknown): Turn[] {
  const { system, messages } = body as { system?: Part[]; messages: Part[] };
  const turns: Turn[] = system ? [turn("system", textOfParts(system, ""))] : [];
  for (const message of messages) {
    const parts = partsOf(message.content);
    if (message.role === "system") turns.push(turn("system", textOfParts(parts, "")));
    else if (message.role === "assistant") {
      turns.push(
        turn(
          "assistant",
          textOfParts(
            parts.filter((part) => part.type === "text"),
            "",
          ),
          parts.flatMap((part) => (part.type === "tool_use" ? [String(part.id)] : [])),
          0,
          parts.filter((part) => part.type === "thinking" || part.type === "redacted_thinking").length,
        ),
      );
    } else if (parts.some((part) => part.type === "tool_result")) {
      for (const part of parts) {
        expect(part.type).toBe("tool_result");
        turns.push(turn("toolResult", stringOrParts(part.content, "\n"), [String(part.tool_use_id)]));
      }
    } else {
      turns.push(
        turn(
          "user",
          stringOrParts(message.content ?? "", "\n"),
          [],
          parts.filter((p) => p.type === "image").length,
        ),
      );
    }
  }
  return turns;
}

function readOpenAICompletions(body: unknown): Turn[] {
  const { messages } = body as { messages: Part[] };
  return messages.map((message) => {
    switch (message.role) {
      case "system":
      case "developer":
        return turn("system", stringOrParts(message.content ?? "", ""));
      case "user":
        return turn(
          "user",
          stringOrParts(message.content ?? "", "\n"),
          [],
          partsOf(message.content).filter((part) => part.type === "image_url").length,
        );
      case "assistant":
        return turn(
          "assistant",
          stringOrParts(message.content ?? "", ""),
          partsOf(message.tool_calls).map((call) => String(call.id)),
          0,
          ["reasoning_content", "reasoning", "reasoning_text", "reasoning_details"].filter(
            (key) => key in message,
          ).length,
        );
      case "tool":
        return turn("toolResult", stringOrParts(message.content ?? "", "\n"), [String(message.tool_call_id)]);
      default:
        throw new Error(`unexpected role ${String(message.role)}`);
    }
  });
}

function readGoogle(body: unknown): Turn[] {
  const { contents, config } = body as { contents: Part[]; config: { systemInstruction?: string } };
  const turns: Turn[] =
    config.systemInstruction === undefined ? [] : [turn("system", config.systemInstruction)];
  for (const content of contents) {
    const parts = partsOf(content.parts);
    if (content.role === "model") {
      turns.push(
        turn(
          "assistant",
          textOfParts(parts, ""),
          parts.flatMap((part) => (part.functionCall ? [String((part.functionCall as Part).id ?? "")] : [])),
          0,
          parts.filter((part) => part.thought === true).length,
        ),
      );
    } else if (parts.some((part) => part.functionResponse)) {
      for (const part of parts) {
        const response = part.functionResponse as {
          id?: string;
          response: { output?: string; error?: string };
        };
        turns.push(
          turn("toolResult", response.response.output ?? response.response.error ?? "", [response.id ?? ""]),
        );
      }
    } else {
      turns.push(turn("user", textOfParts(parts, "\n"), [], parts.filter((part) => part.inlineData).length));
    }
  }
  return turns;
}

/** One assistant message is sent as several items (reasoning, a message per text block, a call per tool call). */
function readResponses(body: unknown): Turn[] {
  const { input } = body as { input: Part[] };
  const turns: Turn[] = [];
  let assistant: Turn | undefined;
  for (const item of input) {
    const isAssistantItem =
      item.type === "function_call" ||
      item.type === "reasoning" ||
      (item.type === "message" && item.role === "assistant");
    if (!isAssistantItem) assistant = undefined;
    else if (!assistant) {
      assistant = turn("assistant", "");
      turns.push(assistant);
    }
    if (assistant && item.type === "message") assistant.text += textOfParts(partsOf(item.content), "");
    else if (assistant && item.type === "function_call") {
      assistant.ids.push(item.id === undefined ? String(item.call_id) : `${String(item.call_id)}|${item.id}`);
    } else if (assistant && item.type === "reasoning") assistant.thinking++;
    else if (item.type === "function_call_output") {
      turns.push(turn("toolResult", String(item.output), [String(item.call_id)]));
    } else if (item.role === "system" || item.role === "developer") {
      turns.push(turn("system", stringOrParts(item.content ?? "", "")));
    } else if (item.role === "user") {
      const parts = partsOf(item.content);
      turns.push(
        turn("user", textOfParts(parts, "\n"), [], parts.filter((p) => p.type === "input_image").length),
      );
    } else throw new Error(`unexpected item ${JSON.stringify(item)}`);
  }
  return turns;
}

/** The Responses API pairs a result with its call by call id alone: the `|item` part is never sent with it. */
const responsesTurnsOfView = (messages: readonly Message[]): Turn[] =>
  turnsOfView(messages).map((expected) =>
    expected.role === "toolResult"
      ? { ...expected, ids: expected.ids.map((id) => id.split("|")[0] ?? id) }
      : expected,
  );

const MISTRAL_ERROR_PREFIX = "[tool error] ";

function readMistral(body: unknown): Turn[] {
  const { messages } = body as { messages: Part[] };
  return messages.map((message) => {
    const parts = partsOf(message.content);
    switch (message.role) {
      case "system":
        return turn("system", stringOrParts(message.content ?? "", ""));
      case "user":
        return turn(
          "user",
          stringOrParts(message.content ?? "", "\n"),
          [],
          parts.filter((p) => p.type === "image_url").length,
        );
      case "assistant":
        return turn(
          "assistant",
          textOfParts(
            parts.filter((part) => part.type === "text"),
            "",
          ),
          partsOf(message.toolCalls).map((call) => String(call.id)),
          0,
          parts.filter((part) => part.type === "thinking").length,
        );
      case "tool": {
        const text = textOfParts(parts, "\n");
        return turn(
          "toolResult",
          text.startsWith(MISTRAL_ERROR_PREFIX) ? text.slice(MISTRAL_ERROR_PREFIX.length) : text,
          [String(message.toolCallId)],
        );
      }
      default:
        throw new Error(`unexpected role ${String(message.role)}`);
    }
  });
}

function readBedrock(body: unknown): Turn[] {
  const { system, messages } = body as { system?: Part[]; messages: Part[] };
  const turns: Turn[] = system ? [turn("system", textOfParts(system, ""))] : [];
  for (const message of messages) {
    const parts = partsOf(message.content);
    if (message.role === "assistant") {
      turns.push(
        turn(
          "assistant",
          textOfParts(parts, ""),
          parts.flatMap((part) => (part.toolUse ? [String((part.toolUse as Part).toolUseId)] : [])),
          0,
          parts.filter((part) => part.reasoningContent).length,
        ),
      );
    } else if (parts.some((part) => part.toolResult)) {
      for (const part of parts.filter((candidate) => !candidate.cachePoint)) {
        const result = part.toolResult as { toolUseId: string; content: Part[] };
        turns.push(turn("toolResult", textOfParts(result.content, "\n"), [result.toolUseId]));
      }
    } else {
      turns.push(turn("user", textOfParts(parts, "\n"), [], parts.filter((part) => part.image).length));
    }
  }
  return turns;
}

type AnyStreamFunction = StreamFunction<Api, StreamOptions>;

/** The body `stream` builds for `messages`, kept by `onPayload`, which aborts before anything is sent. */
async function capturePayload(
  stream: AnyStreamFunction,
  model: Model<Api>,
  messages: Message[],
): Promise<unknown> {
  const controller = new AbortController();
  let payload: unknown;
  const events = stream(model, normalizeContext({ messages }), {
    apiKey: FAKE_KEY,
    signal: controller.signal,
    onPayload: (body) => {
      payload = JSON.parse(JSON.stringify(body));
      controller.abort();
      return undefined;
    },
  });
  const reply = await events.result();
  expect(reply.stopReason, reply.errorMessage).toBe("aborted");
  expect(payload, "the adapter built no request body").toBeDefined();
  return payload;
}

// A codex key must be a JWT naming an account; this one names "acct" and is signed by no one.
const FAKE_KEY =
  "eyJhbGciOiJub25lIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdCJ9fQ.x";

interface AdapterCase {
  name: string;
  model: Model<Api>;
  stream: AnyStreamFunction;
  read: (body: unknown) => Turn[];
  expected?: (messages: readonly Message[]) => Turn[];
  /** How many tool-call ids this target rewrites in the session: proof that its rule was exercised. */
  rewrites: number;
}

const adapter = <TApi extends Api>(stream: StreamFunction<TApi, StreamOptions>) =>
  stream as AnyStreamFunction;
const inPlace = { compat: { supportsMidConvoSystemMessages: true } };

const ADAPTERS: AdapterCase[] = [
  {
    name: "anthropic-messages",
    model: testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5"),
    stream: adapter(anthropicMessages),
    read: readAnthropic,
    rewrites: 8,
  },
  {
    name: "anthropic-messages, system messages in place",
    model: testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5", inPlace),
    stream: adapter(anthropicMessages),
    read: readAnthropic,
    rewrites: 8,
  },
  {
    name: "openai-completions",
    model: testModel("openai-completions", "groq", "llama-3.3-70b-versatile"),
    stream: adapter(openAICompletions),
    read: readOpenAICompletions,
    rewrites: 4,
  },
  {
    name: "openai-completions on OpenAI's own endpoint",
    model: testModel("openai-completions", "openai", "gpt-4o-mini"),
    stream: adapter(openAICompletions),
    read: readOpenAICompletions,
    rewrites: 6,
  },
  {
    name: "openai-completions, system messages in place",
    model: testModel("openai-completions", "groq", "llama-3.3-70b-versatile", inPlace),
    stream: adapter(openAICompletions),
    read: readOpenAICompletions,
    rewrites: 4,
  },
  {
    name: "google-generative-ai, Gemini 3 (ids on the wire)",
    model: testModel("google-generative-ai", "google", "gemini-3-flash-preview"),
    stream: adapter(googleGenerativeAi),
    read: readGoogle,
    rewrites: 8,
  },
  {
    name: "openai-responses, an OpenAI model",
    model: testModel("openai-responses", "openai", "gpt-4o"),
    stream: adapter(openAIResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "openai-responses, a gateway that does not pair item ids",
    model: testModel("openai-responses", "cloudflare-ai-gateway", "gpt-4o"),
    stream: adapter(openAIResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "azure-openai-responses",
    model: testModel("azure-openai-responses", "azure", "gpt-4o"),
    stream: adapter(azureOpenAIResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "openai-codex-responses",
    model: testModel("openai-codex-responses", "openai-codex", "gpt-5.5"),
    stream: adapter(openAICodexResponses),
    read: readResponses,
    expected: responsesTurnsOfView,
    rewrites: 8,
  },
  {
    name: "mistral-conversations",
    model: testModel("mistral-conversations", "mistral", "mistral-large-latest"),
    stream: adapter(mistralConversations),
    read: readMistral,
    rewrites: 10,
  },
  {
    name: "bedrock-converse-stream",
    model: testModel("bedrock-converse-stream", "amazon-bedrock", "anthropic.claude-sonnet-4-5", {
      baseUrl: "http://127.0.0.1:9",
    }),
    stream: adapter(bedrockConverseStream),
    read: readBedrock,
    rewrites: 8,
  },
];

const countRewrites = (view: ProviderView): number =>
  view.modelChanges
    .flat()
    .filter((change) => change.kind === "tool-call-id-rewritten" && change.from !== change.to).length;

describe("the provider view is what pi-ai's adapters send", () => {
  for (const target of ADAPTERS) {
    it(target.name, async () => {
      const session = richSession(target.model);
      const view = providerView(session, target.model);
      const body = await capturePayload(target.stream, target.model, session);

      // Message for message: roles in order, tool-call ids, text, images and thinking.
      expect(target.read(body)).toEqual((target.expected ?? turnsOfView)(view.messages));

      // The rules the view reports are on the wire: nothing of the dropped replies, of another model's
      // thinking or signatures, or of the image; the placeholder result is there.
      const wire = JSON.stringify(body);
      for (const gone of [
        TEXT.aborted,
        TEXT.errored,
        TEXT.foreignThinking,
        ...Object.values(SIGNATURE),
        "AAAA",
      ]) {
        expect(wire).not.toContain(gone);
      }
      expect(wire).toContain("No result provided");
      expect(view.modelChanges[AT.aborted]).toEqual([{ kind: "dropped", reason: "aborted" }]);
      expect(view.modelChanges[AT.errored]).toEqual([{ kind: "dropped", reason: "error" }]);
      expect(countRewrites(view)).toBe(target.rewrites);
    });
  }

  it("openai-responses: an item id from the same provider through another API counts as foreign", async () => {
    const gpt = testModel("openai-responses", "openai", "gpt-4o");
    const viaCompletions = { api: "openai-completions", provider: "openai", model: "gpt-4o" } as const;
    const call = { type: "toolCall", id: "call_q|item+1", name: "get_time", arguments: {} } as const;
    const messages: Message[] = [
      { role: "user", content: "Time?", timestamp: 1 },
      { ...reply(gpt, [call], 2), ...viaCompletions },
      { role: "user", content: "Thanks", timestamp: 3 },
    ];
    const view = providerView(messages, gpt);
    const body = await capturePayload(adapter(openAIResponses), gpt, messages);
    expect(readResponses(body)).toEqual(responsesTurnsOfView(view.messages));
    expect(view.modelChanges[1]).toEqual([
      {
        kind: "tool-call-id-rewritten",
        from: "call_q|item+1",
        to: expect.stringMatching(/^call_q\|fc_[a-z0-9]+$/),
      },
    ]);
  });

  it("google-generative-ai, Gemini 2.5: ids are neither rewritten nor sent, calls and results match by name", async () => {
    const gemini = testModel("google-generative-ai", "google", "gemini-2.5-flash");
    const session = richSession(gemini);
    const view = providerView(session, gemini);
    const body = await capturePayload(adapter(googleGenerativeAi), gemini, session);
    const withoutIds = (turns: Turn[]) => turns.map((each) => ({ ...each, ids: each.ids.map(() => "") }));
    expect(readGoogle(body)).toEqual(withoutIds(turnsOfView(view.messages)));
    expect(countRewrites(view)).toBe(0);
    expect(JSON.stringify(body)).not.toContain('"id"');
  });
});
