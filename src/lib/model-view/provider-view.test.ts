import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import {
  AT,
  clockTool,
  ID,
  replyOf,
  richSession,
  SIGNATURE,
  testModel,
} from "./provider-fixtures.test-support.ts";
import { summarizeProviderView } from "./provider-change-labels.ts";
import type { ProviderChange, ProviderView } from "./provider-changes.ts";
import { providerView } from "./provider-view.ts";

const anthropic = testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5");
const anthropicInPlace = testModel("anthropic-messages", "anthropic", "claude-sonnet-4-5", {
  compat: { supportsMidConvoSystemMessages: true },
});

const kinds = (changes: readonly ProviderChange[] | undefined) => changes?.map((change) => change.kind);
const sourceIndices = (view: ProviderView) => Array.from(view.sourceOf);
const targetIndices = (view: ProviderView) => Array.from(view.targetOf);

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
    replyOf(vision, [{ type: "toolCall", id: "toolu_1", name: "get_time", arguments: {} }], 2),
    {
      role: "toolResult",
      toolCallId: "toolu_1",
      toolName: "get_time",
      content: [{ type: "text", text: "12:00" }],
      isError: false,
      timestamp: 3,
    },
    replyOf(vision, [{ type: "text", text: "Noon.", textSignature: "own" }], 4),
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
    const withAborted = [...messages, { ...replyOf(server, [], 7), stopReason: "aborted" as const }];
    const view = providerView(withAborted, server);
    expect(view.messages).toEqual(withAborted);
    expect(view.modelChanges.map(kinds)).toEqual(withAborted.map(() => ["unchanged"]));
  });

  it("drops an aborted reply for an API pi-ai does not know, and rewrites no id", () => {
    const faux = testModel("mirror-api", "mirror", "mirror");
    const foreign = replyOf(
      anthropic,
      [{ type: "toolCall", id: ID.pipeShort, name: "get_time", arguments: {} }],
      7,
    );
    const aborted = { ...replyOf(faux, [{ type: "text", text: "Hel" }], 9), stopReason: "aborted" as const };
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
      replyOf(anthropicInPlace, [{ type: "toolCall", id: "toolu_9", name: "get_time", arguments: {} }], 2),
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
      { ...replyOf(anthropic, [], 2), content: null },
    ] as unknown as Message[];
    const view = providerView(messages, anthropic);
    expect(view.messages.map((message) => message.content)).toEqual([[], []]);
    expect(view.modelChanges.map(kinds)).toEqual([["unchanged"], ["unchanged"]]);
    expect(sourceIndices(view)).toEqual([0, 1]);
  });
});

describe("providerView on the results of a dropped reply", () => {
  const first: Message = { role: "user", content: "one", timestamp: 1 };
  const second: Message = { role: "user", content: "two", timestamp: 2 };

  it("keeps the results of a dropped reply, as pi-ai does", () => {
    const stopped = {
      ...replyOf(anthropic, [{ type: "toolCall", id: "toolu_x", name: "get_time", arguments: {} }], 2),
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

describe("providerView on a list the transform cannot read", () => {
  it("says which transform failed and why", () => {
    const broken = { ...replyOf(anthropic, [], 1), content: "not blocks" } as unknown as Message;
    const other = testModel("openai-completions", "groq", "llama");
    expect(() => providerView([broken], other)).toThrow(
      /^The openai-completions transform cannot read this list: /,
    );
  });
});
