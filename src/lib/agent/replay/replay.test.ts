import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { createNotification } from "../../messages/factories.ts";
import { ChatSession } from "../chat-session.svelte.ts";
import { askHuman, lookup, mirrorSettings, mirrorWorld } from "../mirror-world.test-support.ts";
import { defaultToolDefinitions } from "../tools/tool-definitions.ts";
import { callsOn, comparableView, compareReplay, replaysOf, type CallSide } from "./replay-compare.ts";

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1000 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 2));
  if (!condition()) throw new Error("timed out");
}

/** Six calls, two of them tool calls (one answered by a person), and a notification between runs. */
async function recordedSession() {
  const world = mirrorWorld();
  const session = await ChatSession.create(world.deps(), {
    settings: mirrorSettings({ tools: [...defaultToolDefinitions(), lookup, askHuman] }),
  });
  await session.send('call lookup_order with {"id": 7}');
  await session.inject(createNotification("Deploy finished"), "append");
  await session.send("hello");
  const asked = session.send('call ask_human with {"question": "which color?"}');
  await until(() => session.toolAnswers?.waiting.length === 1);
  const [call] = session.toolAnswers?.waiting ?? [];
  session.toolAnswers?.answer(call?.toolCallId ?? "", { text: "blue", isError: false });
  await asked;
  await session.send("thanks");
  return { ...world, session };
}

async function sides(session: ChatSession, calls: readonly { seq: number }[]): Promise<CallSide[]> {
  await session.calls.load({ again: true });
  return Promise.all(
    session.calls.calls
      .filter((call) => calls.some((wanted) => wanted.seq === call.seq))
      .map(async (call) => {
        const body = await session.calls.body(call.seq);
        const messages = body?.messages.kept === "all" ? (body.messages.value as Message[]) : undefined;
        return { call, messages };
      }),
  );
}

async function comparisonOf(session: ChatSession, index: number) {
  await session.calls.load({ again: true });
  const replay = replaysOf(session.entries)[index];
  if (!replay) throw new Error("no replay");
  const original = await sides(session, callsOn(session.calls.calls, replay.original));
  const replayed = await sides(session, callsOn(session.calls.calls, replay.replay));
  return { replay, comparison: compareReplay(original, replayed) };
}

const rolesOf = (facts: readonly AgentMessage[]) => facts.map((fact) => fact.role);

describe("replaying a session from a fact", () => {
  it("unchanged on Mirror, reproduces every call's model view on a new branch, with recorded tool results", async () => {
    const { session, bodies } = await recordedSession();
    const originalLeaf = session.leafId;
    const originalFacts = session.facts.slice();
    expect(bodies).toHaveLength(6);

    expect(await session.replay(0, {})).toBeUndefined();
    const run = session.currentReplay;
    expect(run?.status).toBe("done");
    // No tool ran: both results came from the recording, and nobody was asked.
    expect(run?.reused).toBe(2);
    expect(run?.ran).toBe(0);
    expect(session.toolAnswers?.waiting).toEqual([]);
    expect(bodies).toHaveLength(12);
    // A new branch: the recorded one is still there, as it was.
    expect(session.leafId).not.toBe(originalLeaf);
    expect(rolesOf(session.facts)).toEqual(rolesOf(originalFacts));

    const { comparison, replay } = await comparisonOf(session, 0);
    expect(replay.record.originalLeafId).toBe(originalLeaf);
    expect(comparison.original.calls).toBe(6);
    expect(comparison.replay.calls).toBe(6);
    expect(comparison.calls.map((call) => call.same)).toEqual([true, true, true, true, true, true]);
    expect(comparison.firstDivergence).toBeUndefined();
    // What the provider received, call by call, is the same too (times aside).
    for (let index = 0; index < 6; index++)
      expect(JSON.stringify(strip(bodies[index + 6]?.context.messages))).toBe(
        JSON.stringify(strip(bodies[index]?.context.messages)),
      );
  });

  it("with notifications as user text, differs from the first call after the notification on, not before", async () => {
    const { session } = await recordedSession();
    await session.replay(0, { policies: { notification: "userText" } });
    expect(session.currentReplay?.status).toBe("done");
    const { comparison } = await comparisonOf(session, 0);
    expect(comparison.calls.map((call) => call.same)).toEqual([true, true, false, false, false, false]);
    expect(comparison.firstDivergence).toBe(2);
    const added = comparison.calls[2]?.diff?.entries.find((entry) => entry.kind === "added");
    expect(JSON.stringify(added)).toContain("Deploy finished");
    // The session's own policy did not change.
    expect(session.settings.context.policies.notification).toBe("hidden");
  });

  it("with another system prompt, differs from the first call on; the session's prompt stays", async () => {
    const { session } = await recordedSession();
    const prompt = session.systemPrompt;
    await session.replay(0, { systemPrompt: "Be brief." });
    expect(session.currentReplay?.status).toBe("done");
    const { comparison } = await comparisonOf(session, 0);
    expect(comparison.firstDivergence).toBe(0);
    const first = comparison.calls[0]?.replay?.messages?.[0];
    expect(first).toMatchObject({ role: "system", content: "Be brief." });
    expect(session.systemPrompt).toBe(prompt);
  });

  it("a tool call with no recorded result waits for a person: a typed result, or the end of the replay", async () => {
    const world = mirrorWorld();
    const off = { ...lookup, enabled: false };
    const session = await ChatSession.create(world.deps(), {
      settings: mirrorSettings({ tools: [...defaultToolDefinitions(), off] }),
    });
    await session.send('call lookup_order with {"id": 7}');
    await session.send("and again");
    // Offered the tool, Mirror calls it: no call of it was recorded, so the replay asks.
    const offered = ["current_time", "calculate", "save_note", "lookup_order"];
    const typed = session.replay(0, { tools: offered });
    await until(() => session.currentReplay?.question !== undefined);
    expect(session.currentReplay?.question).toMatchObject({ toolName: "lookup_order", args: { id: 7 } });
    session.currentReplay?.answer({ kind: "typed", text: '{"status": "lost"}', isError: false });
    await typed;
    expect(session.currentReplay?.status).toBe("done");
    const results = session.facts.filter((fact) => fact.role === "toolResult");
    expect(JSON.stringify(results)).toContain('{\\"status\\": \\"lost\\"}');

    // Again, and this time end the replay at that call: the run stops there, the rest is not replayed.
    await session.branches.switchBranch(replaysOf(session.entries)[0]?.record.originalLeafId ?? "");
    const ended = session.replay(0, { tools: offered });
    await until(() => session.currentReplay?.question !== undefined);
    session.currentReplay?.answer({ kind: "end" });
    await ended;
    expect(session.currentReplay?.status).toBe("ended");
    expect(session.running).toBe(false);
    const last = session.facts.at(-1);
    expect(last?.role === "assistant" && last.stopReason).toBe("aborted");
    // The second prompt was never delivered.
    expect(JSON.stringify(session.facts)).not.toContain("and again");
  });

  it("a replay that would never end is ended at its call limit", async () => {
    const world = mirrorWorld();
    const session = await ChatSession.create(world.deps(), {
      settings: mirrorSettings({ tools: [...defaultToolDefinitions(), lookup] }),
    });
    await session.send('call lookup_order with {"id": 7}');
    const { prepareReplay } = await import("./replay-start.ts");
    const run = prepareReplay(
      {
        facts: session.facts,
        factIds: session.projection.factIds,
        leafId: session.leafId,
        settings: session.settings,
      },
      0,
      {},
    );
    if (typeof run === "string") throw new Error(run);
    // Two recorded calls: at most 2 × 2 + 10.
    expect(run.limit).toBe(14);
  });
});

function strip(messages: readonly { role: string }[] | undefined) {
  return comparableView((messages ?? []) as Message[]);
}
