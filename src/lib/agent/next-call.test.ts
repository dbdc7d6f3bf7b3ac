import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { createInitialSystemMessage, type Message } from "@earendil-works/pi-ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PayloadResponse } from "../../shared/api-types.ts";
import { parseStreamRequest } from "../../shared/stream-request.ts";
import { createCustomMessage } from "../messages/factories.ts";
import { ChatSession } from "./chat-session.svelte.ts";
import { useFakeProxy, world } from "./chat-session.test-support.ts";
import type { SessionInit } from "./new-session.ts";
import { declareToolChanges } from "./next-call.ts";
import { previewBody, type PreviewRequest } from "./stream-route.ts";
import { defaultToolDefinitions, enabledDeclarations } from "./tools/tool-definitions.ts";

const DEMO_TOOLS = enabledDeclarations(defaultToolDefinitions());

const proxy = useFakeProxy();

// New messages are stamped with the time they are made: one stopped clock stamps the preview's prompt and
// the sent one alike, so the two requests can be compared whole.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(1_700_000_000_000);
});
afterEach(() => vi.useRealTimers());

const BUILT: PayloadResponse = { payload: { kept: "all", value: { built: true }, bytes: 14 } };

/** A session whose router previews (recording what it was asked), beside the fake proxy's real calls. */
async function previewing(init?: SessionInit) {
  const deps = world().tab("a");
  const asked: PreviewRequest[] = [];
  const { route } = deps.router;
  deps.router = {
    route,
    preview: async (request) => {
      asked.push(request);
      return BUILT;
    },
  };
  return { session: await ChatSession.create(deps, init), asked };
}

/** What the proxy builds the provider's request from: its own reading of a body (the call's id aside). */
function asTheProxyReadsIt(body: string | undefined) {
  const { callId: _callId, ...request } = parseStreamRequest(body ?? "");
  return request;
}

const texts = (messages: readonly Message[]) =>
  messages.map((message) =>
    typeof message.content === "string"
      ? message.content
      : message.content.map((part) => ("text" in part ? part.text : "")).join(""),
  );

describe("the next call's preview", () => {
  it("is the request that sending the prompt then makes: model, messages and options", async () => {
    const { session, asked } = await previewing();
    await session.send("hello");
    await session.setThinkingLevel("high");

    const preview = await session.previewNextCall("  what next?  ");
    expect(preview.response).toBe(BUILT);
    expect(asked).toEqual([preview.request]);
    // Previewing sent nothing.
    expect(proxy.bodies).toHaveLength(1);

    await session.send("  what next?  ");
    expect(proxy.bodies).toHaveLength(2);
    const sent = asTheProxyReadsIt(proxy.bodies[1]);
    expect(asTheProxyReadsIt(previewBody(preview.request))).toEqual(sent);
    expect(texts(sent.messages).slice(1)).toEqual(["hello", "reply 1", "what next?"]);
    expect(sent.options).toEqual({ reasoning: "high", sessionId: session.id });
  });

  it("declares the Agent's tools as pi's loop does when the transcript has not declared them", async () => {
    const promptOnly = createInitialSystemMessage("A prompt without tools.", undefined) as AgentMessage;
    const { session } = await previewing({ facts: [promptOnly] });

    const preview = await session.previewNextCall("hi");
    await session.send("hi");
    const sent = asTheProxyReadsIt(proxy.bodies[0]);
    expect(asTheProxyReadsIt(previewBody(preview.request))).toEqual(sent);
    // pi's loop put a system message declaring the tools before the prompt.
    const declared = sent.messages[1];
    expect(declared?.role).toBe("system");
    expect(declared?.role === "system" ? declared.toolsAdded?.map((tool) => tool.name) : []).toEqual(
      DEMO_TOOLS.map((tool) => tool.name),
    );
  });

  it("carries the messages held for the next turn, as the model reads them", async () => {
    const { session } = await previewing();
    await session.inject(createCustomMessage("note", "held for the next prompt", true), "nextTurn");

    const preview = await session.previewNextCall("go");
    await session.send("go");
    const sent = asTheProxyReadsIt(proxy.bodies[0]);
    expect(asTheProxyReadsIt(previewBody(preview.request))).toEqual(sent);
    expect(texts(sent.messages).slice(1)).toEqual(["go", "held for the next prompt"]);
  });

  it("without a prompt, is the model view as it stands", async () => {
    const { session } = await previewing();
    await session.send("hello");
    const preview = await session.previewNextCall();
    expect(preview.request.context.messages).toEqual(session.modelView.messages);
    expect(proxy.bodies).toHaveLength(1);
  });

  it("says so when the connection cannot build a provider's payload", async () => {
    const session = await ChatSession.create(world().tab("a"));
    const preview = await session.previewNextCall("hi");
    expect(preview.response.payload).toEqual({
      kept: "none",
      bytes: 0,
      reason: "this connection cannot build a provider's payload",
    });
  });
});

describe("declareToolChanges", () => {
  const tools = DEMO_TOOLS;
  const declaredAll = createInitialSystemMessage("p", tools.slice()) as AgentMessage;
  const prompt: AgentMessage = { role: "user", content: "hi", timestamp: 1 };

  it("adds nothing when the transcript declares the Agent's tools", () => {
    expect(declareToolChanges([declaredAll], [prompt], tools)).toEqual([prompt]);
  });

  it("declares what was removed, and lets a waiting system message carry the changes", () => {
    const fewer = tools.slice(1);
    const [update, rest] = declareToolChanges([declaredAll], [prompt], fewer, 7);
    expect(update).toEqual({
      role: "system",
      content: "",
      toolsRemoved: [{ name: tools[0]?.name }],
      timestamp: 7,
    });
    expect(rest).toBe(prompt);
    const waiting: AgentMessage = { role: "system", content: "more", timestamp: 2 };
    expect(declareToolChanges([declaredAll], [waiting, prompt], fewer)).toEqual([
      { ...waiting, toolsRemoved: [{ name: tools[0]?.name }] },
      prompt,
    ]);
  });
});
