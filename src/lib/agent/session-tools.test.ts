import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { MemoryKeyValueStore } from "../storage/kv.ts";
import { CallPreferences } from "./call-preferences.svelte.ts";
import { ChatSession } from "./chat-session.svelte.ts";
import { noticeOf } from "./chat-session.test-support.ts";
import { askHuman, lookup, mirrorSettings, mirrorWorld } from "./mirror-world.test-support.ts";
import { defaultToolDefinitions, type ToolDefinition } from "./tools/tool-definitions.ts";

const fixed: ToolDefinition = {
  name: "weather",
  description: "The weather.",
  parameters: { type: "object" },
  source: { kind: "fixed", json: '{"sky": "clear"}' },
  enabled: true,
};

const resultsOf = (facts: readonly AgentMessage[]) =>
  facts.flatMap((fact) =>
    fact.role === "toolResult"
      ? [
          [
            fact.toolName,
            fact.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
            fact.isError,
          ],
        ]
      : [],
  );

/** The session's waiting tool calls (there once the Agent's chunk has loaded, as a run needs it). */
function answersOf(session: ChatSession) {
  const answers = session.toolAnswers;
  if (!answers) throw new Error("the Agent's chunk has not loaded");
  return answers;
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 2));
  if (!condition()) throw new Error("timed out");
}

describe("tools a person defines, run by the session's Agent on Mirror", () => {
  it("are declared to the model in the session's first fact, and answered from their templates and fixed JSON", async () => {
    const { deps, bodies } = mirrorWorld();
    const tools = [...defaultToolDefinitions(), lookup, fixed];
    const session = await ChatSession.create(deps(), { settings: mirrorSettings({ tools }) });
    const first = session.facts[0];
    expect(first?.role === "system" ? first.toolsAdded?.map((tool) => tool.name) : []).toEqual([
      "current_time",
      "calculate",
      "save_note",
      "lookup_order",
      "weather",
    ]);
    await session.send('call lookup_order with {"id": 7}');
    await session.send("call weather");
    expect(resultsOf(session.facts)).toEqual([
      ["lookup_order", '{"id": 7, "status": "shipped"}', false],
      ["weather", '{"sky": "clear"}', false],
    ]);
    // What the model read next: the template's result, as the tool result of its call.
    const afterLookup = bodies[1]?.context.messages.at(-1) as { role: string; content: { text: string }[] };
    expect(afterLookup.role).toBe("toolResult");
    expect(afterLookup.content[0]?.text).toBe('{"id": 7, "status": "shipped"}');
  });

  it('wait for a person to type the result of an "ask me" tool, and the next call carries it', async () => {
    const { deps, bodies } = mirrorWorld();
    const session = await ChatSession.create(deps(), { settings: mirrorSettings({ tools: [askHuman] }) });
    const sent = session.send('call ask_human with {"question": "which color?"}');
    await until(() => session.toolAnswers?.waiting.length === 1);
    expect(session.running).toBe(true);
    const [asked] = answersOf(session).waiting;
    expect(asked).toMatchObject({ toolName: "ask_human", args: { question: "which color?" } });
    expect(answersOf(session).answer(asked?.toolCallId ?? "", { text: "blue", isError: false })).toBe(true);
    await sent;
    expect(resultsOf(session.facts)).toEqual([["ask_human", "blue", false]]);
    expect(JSON.stringify(bodies.at(-1)?.context.messages.at(-1))).toContain('"text":"blue"');
    expect(session.running).toBe(false);
  });

  it('an "ask me" call answered as an error reaches the model as the tool\'s error; a stop ends the wait', async () => {
    const { deps } = mirrorWorld();
    const session = await ChatSession.create(deps(), { settings: mirrorSettings({ tools: [askHuman] }) });
    const first = session.send("call ask_human");
    await until(() => session.toolAnswers?.waiting.length === 1);
    answersOf(session).answer(answersOf(session).waiting[0]?.toolCallId ?? "", {
      text: "no idea",
      isError: true,
    });
    await first;
    const second = session.send("call ask_human");
    await until(() => session.toolAnswers?.waiting.length === 1);
    session.stop();
    await second;
    expect(answersOf(session).waiting).toEqual([]);
    expect(resultsOf(session.facts).map(([, text, isError]) => [text, isError])).toEqual([
      ["no idea", true],
      ["The run was stopped before anyone typed a result.", true],
    ]);
  });

  it("changed between runs, are declared changed before the next call, as pi declares tool changes", async () => {
    const { deps, bodies } = mirrorWorld();
    const session = await ChatSession.create(deps(), { settings: mirrorSettings() });
    await session.send("hello");
    const [time, calculate, note] = defaultToolDefinitions();
    await session.setTools([time!, { ...calculate!, enabled: false }, note!, lookup]);
    await session.send('call lookup_order with {"id": 1}');
    const declared = session.facts.find((fact, index) => index > 0 && fact.role === "system");
    expect(declared).toMatchObject({
      role: "system",
      toolsAdded: [{ name: "lookup_order" }],
      toolsRemoved: [{ name: "calculate" }],
    });
    // The request that followed carried the change, and Mirror could call the new tool.
    expect(bodies[1]?.context.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "system",
      "user",
    ]);
    expect(resultsOf(session.facts)).toEqual([["lookup_order", '{"id": 1, "status": "shipped"}', false]]);
  });
});

describe("the limit of tool calls in a row", () => {
  it("ends the run at the limit before the model is asked again, and says so; under it the run goes on", async () => {
    const { deps, bodies } = mirrorWorld();
    const preferences = new CallPreferences(() => new MemoryKeyValueStore());
    expect(preferences.setToolCallsPerRun(1)).toBe(true);
    const world = { ...deps(), preferences };
    const session = await ChatSession.create(world, { settings: mirrorSettings({ tools: [lookup] }) });
    await session.send('call lookup_order with {"id": 7}');
    expect(session.facts.at(-1)?.role).toBe("toolResult");
    expect(bodies).toHaveLength(1);
    expect(noticeOf(world, session)).toContain("stopped after 1 tool call in a row");

    // Raised: the same request runs to the model's answer, and the notice goes with the next run.
    preferences.setToolCallsPerRun(2);
    await session.send('call lookup_order with {"id": 8}');
    expect(session.facts.at(-1)?.role).toBe("assistant");
    expect(bodies).toHaveLength(3);
    expect(noticeOf(world, session)).toBeUndefined();
  });
});
