import type { AssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { CallBodyRecord, CallRecord, NewCall } from "../../storage/records.ts";
import { ChatSession } from "../chat-session.svelte.ts";
import { mirrorSettings, mirrorWorld } from "../mirror-world.test-support.ts";
import { runSideCall } from "../rerun/run-variant.ts";
import type { StreamRouter } from "../stream-route.ts";
import { MOVED_ON } from "./run-turn.ts";
import {
  compareTurn,
  readVariantLink,
  seedColumns,
  shownOutput,
  VARIANT_OUTPUT_PIECE_CHARS,
  VARIANT_OUTPUT_SHOWN_CHARS,
  turnFigures,
  variantSetsOf,
  type ColumnTurn,
  type VariantLink,
} from "./variant-set.ts";

const replyText = (reply: AssistantMessage) =>
  reply.content.map((part) => (part.type === "text" ? part.text : "")).join("");

async function sessionWithNotification() {
  const world = mirrorWorld();
  const session = await ChatSession.create(world.deps(), { settings: mirrorSettings() });
  await session.send("hello");
  await session.inject({ role: "notification", text: "build finished", timestamp: 1 }, "append");
  return { ...world, session };
}

/** Send `prompt` to every column of a set at once, as the Variants view does; each column's reply. */
async function sendToAll(
  session: ChatSession,
  set: string,
  columns: ReturnType<typeof seedColumns>,
  prompt: string,
  earlier: ColumnTurn[][],
  turn: number,
) {
  return Promise.all(
    columns.map((setup, column) =>
      session.runVariantTurn(
        { set, column, turn, prompt, baseLeafId: session.leafId, setup },
        earlier[column] ?? [],
        new AbortController().signal,
      ),
    ),
  );
}

/** A stored call as an export writes it: without the session and number it had (as JSON, read back). */
function exportedCall(summary: CallRecord, body: CallBodyRecord): NewCall {
  const { schema: _schema, sessionId: _session, seq: _seq, ...summaryFields } = summary;
  const { schema: _bodySchema, sessionId: _bodySession, seq: _bodySeq, ...bodyFields } = body;
  return JSON.parse(JSON.stringify({ summary: summaryFields, body: bodyFields })) as NewCall;
}

describe("variants side by side, on Mirror", () => {
  it("sends one prompt to every column with its own settings, records each turn as a linked call, and reads the set back after reopening and after export and import", async () => {
    const { session, deps, bodies, store } = await sessionWithNotification();
    const factsBefore = session.facts.length;
    const leafBefore = session.leafId;
    const columns = seedColumns(session.settings, session.systemPrompt, ["get_time"], 3);
    const [, second, third] = columns;
    if (!second || !third) throw new Error("three columns");
    second.policies = { ...second.policies, notification: "userText" };
    third.systemPrompt = "Answer in one line.";
    third.sampling = { temperature: 0.2 };

    const sent = bodies.length;
    const first = await sendToAll(session, "set-1", columns, "what is new?", [], 0);
    const requests = bodies.slice(sent);
    expect(requests).toHaveLength(3);
    // The notification reaches only the column that shows it as user text; the prompt reaches all.
    const roles = requests.map((body) => body.context.messages.map((message) => message.role));
    expect(roles[1]?.length).toBe((roles[0]?.length ?? 0) + 1);
    for (const body of requests)
      expect(JSON.stringify(body.context.messages.at(-1))).toContain("what is new?");
    expect(JSON.stringify(requests[2]?.context.messages[0])).toContain("Answer in one line.");
    expect(JSON.stringify(requests[0]?.context.messages[0])).not.toContain("Answer in one line.");
    expect(requests[2]?.options).toMatchObject({ temperature: 0.2 });
    expect(requests[0]?.options.temperature).toBeUndefined();
    // Mirror says what it received: the column that sees the notification received one message more.
    expect(replyText(first[0]?.reply as AssistantMessage)).not.toBe(
      replyText(first[1]?.reply as AssistantMessage),
    );
    // The facts are untouched.
    expect(session.facts.length).toBe(factsBefore);
    expect(session.leafId).toBe(leafBefore);

    // A second turn follows each column's own first one.
    const earlier = first.map((result) => [
      { prompt: "what is new?", at: result.call.startedAt, reply: result.reply },
    ]) satisfies ColumnTurn[][];
    await sendToAll(session, "set-1", columns, "and then?", earlier, 1);
    const secondTurn = bodies.slice(-3);
    for (const [column, body] of secondTurn.entries())
      expect(JSON.stringify(body.context.messages)).toContain(
        JSON.stringify(replyText(first[column]?.reply as AssistantMessage)).slice(1, 40),
      );

    const read = (calls: readonly CallRecord[]) => variantSetsOf(calls);
    const check = (calls: readonly CallRecord[]) => {
      const [set] = read(calls);
      expect(read(calls)).toHaveLength(1);
      expect(set?.prompts).toEqual(["what is new?", "and then?"]);
      expect(set?.baseLeafId).toBe(leafBefore);
      expect(set?.columns.map((column) => column.setup.label)).toEqual(["A", "B", "C"]);
      expect(set?.columns[1]?.setup.policies.notification).toBe("userText");
      expect(set?.columns[2]?.setup.systemPrompt).toBe("Answer in one line.");
      expect(set?.columns.every((column) => column.turns.length === 2 && column.turns.every(Boolean))).toBe(
        true,
      );
    };
    await session.calls.load();
    check(session.calls.calls);

    // Reopened: the same set, from storage alone.
    const again = await ChatSession.open(deps(), session.id);
    await again?.calls.load();
    check(again?.calls.calls ?? []);

    // Exported and imported: the calls travel as they are, and the set with them.
    const exported: NewCall[] = [];
    for (const call of session.calls.calls) {
      const body = await store.readCallBody(session.id, call.seq);
      if (body) exported.push(exportedCall(call, body));
    }
    const copy = await ChatSession.create(deps(), { settings: mirrorSettings() });
    for (const call of exported) await store.appendCall(copy.id, call);
    await copy.calls.load();
    check(copy.calls.calls);
    const figures = turnFigures(
      copy.calls.calls.at(-1) as CallRecord,
      await store.readCallBody(copy.id, (copy.calls.calls.at(-1) as CallRecord).seq),
    );
    expect(figures.payloadBytes).toBeGreaterThan(0);
    expect(figures.output).toBeGreaterThan(0);
  });

  it("makes a column the session's branch: a new branch whose facts are the base and the column's turns, the old branch kept", async () => {
    const { session } = await sessionWithNotification();
    const base = session.facts.slice();
    const baseLeaf = session.leafId;
    const columns = seedColumns(session.settings, session.systemPrompt, [], 2);
    const [, second] = columns;
    if (!second) throw new Error("two columns");
    second.policies = { ...second.policies, notification: "userText" };
    second.sampling = { maxTokens: 300 };
    const results = await sendToAll(session, "set-2", columns, "summarise", [], 0);
    const chosen = results[1];
    if (!chosen) throw new Error("no reply");
    const problem = await session.useVariant(baseLeaf, second, [
      { prompt: "summarise", at: chosen.call.startedAt, reply: chosen.reply },
    ]);
    expect(problem).toBeUndefined();
    expect(session.facts.slice(0, base.length)).toEqual(base);
    // The column offered no tools, which the session's branch had: pi declares that in a system message
    // before the prompt, as the column's request had it.
    const added = session.facts.slice(base.length);
    expect(added.map((fact) => fact.role)).toEqual(["system", "user", "assistant"]);
    expect(added[0]).toMatchObject({ role: "system", toolsRemoved: expect.any(Array) });
    expect(added[1]).toMatchObject({ role: "user", content: [{ type: "text", text: "summarise" }] });
    expect(session.facts.at(-1)).toEqual(chosen.reply);
    expect(session.settings.context.policies.notification).toBe("userText");
    expect(session.settings.sampling).toEqual({ maxTokens: 300 });
    // The base leaf still has the branch the session was on... and now this one: nothing was overwritten.
    expect(session.entries.filter((entry) => entry.parentId === baseLeaf)).toHaveLength(1);
    // The set now compares over a leaf the session left: a further turn is refused with why.
    await expect(
      session.runVariantTurn(
        { set: "set-2", column: 0, turn: 1, prompt: "more", baseLeafId: baseLeaf, setup: second },
        [],
        new AbortController().signal,
      ),
    ).rejects.toThrow(MOVED_ON);
  });

  it("stops a column whose stream never ends when asked, and records it as stopped", async () => {
    const { deps } = mirrorWorld();
    const session = await ChatSession.create(deps(), { settings: mirrorSettings() });
    const silent: typeof fetch = async (_input, init) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            init?.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
          },
        }),
        { status: 200, headers: { "Content-Type": "text/event-stream" } },
      );
    const router: StreamRouter = {
      route: async () => ({
        proxyUrl: "http://never.test",
        authToken: "t",
        transport: silent,
        settled: () => undefined,
      }),
    };
    const stop = new AbortController();
    const recorded: CallRecord[] = [];
    const link = {
      set: "s",
      column: 0,
      turn: 0,
      prompt: "hi",
      baseLeafId: session.leafId,
      setup: seedColumns(session.settings, "", [], 2)[0],
    };
    const running = runSideCall(
      {
        store: deps().store,
        sessionId: session.id,
        router,
        modelOf: (ref) => session.modelOf(ref),
        keptBytes: () => 0,
        recorded: (call) => recorded.push(call),
      },
      {
        provider: "mirror",
        modelId: "mirror",
        messages: [{ role: "user", content: "hi", timestamp: 1 }],
        options: {},
      },
      { leafId: session.leafId, link: { variantSet: link }, what: "variant" },
      stop.signal,
    );
    setTimeout(() => stop.abort(), 30);
    const { call } = await running;
    expect(call.outcome.stopReason).toBe("aborted");
    expect(readVariantLink(call.variantSet)).toMatchObject({ set: "s", column: 0, turn: 0 });
    expect(recorded.map((item) => item.id)).toEqual([call.id]);
  });
});

const setup = {
  label: "A",
  model: { provider: "mirror", id: "mirror" },
  thinkingLevel: "off",
  systemPrompt: "p",
  policies: { notification: "hidden", approval_request: "hidden", progress: "hidden" },
  sampling: {},
  tools: [],
};
const link = { set: "s", column: 1, turn: 0, prompt: "hi", baseLeafId: "leaf", setup };

describe("a variant link read from a file", () => {
  it("is read when whole", () => {
    expect(readVariantLink(link)).toEqual(link);
  });

  it("is refused, leaving the call an ordinary one, when damaged or hostile", () => {
    const damaged: unknown[] = [
      undefined,
      "s",
      { ...link, set: "" },
      { ...link, column: 3 },
      { ...link, column: -1 },
      { ...link, turn: 1.5 },
      { ...link, prompt: 7 },
      { ...link, prompt: "x".repeat(1_000_001) },
      { ...link, baseLeafId: 4 },
      { ...link, setup: { ...setup, model: "mirror/mirror" } },
      { ...link, setup: { ...setup, thinkingLevel: "maximum" } },
      { ...link, setup: { ...setup, systemPrompt: undefined } },
    ];
    for (const raw of damaged) expect(readVariantLink(raw)).toBeUndefined();
  });

  it("keeps only known policies, sampling values and tool names, and bounds the label", () => {
    const read = readVariantLink({
      ...link,
      setup: {
        ...setup,
        label: "L".repeat(500),
        policies: { notification: "userText", progress: "shout", __proto__: { x: 1 } },
        sampling: { temperature: "hot", maxTokens: 5 },
        tools: ["a", 3, null, "b"],
      },
    });
    expect(read?.setup.label).toHaveLength(40);
    expect(read?.setup.policies).toEqual({
      notification: "userText",
      approval_request: "hidden",
      progress: "hidden",
    });
    expect(read?.setup.sampling).toEqual({ maxTokens: 5 });
    expect(read?.setup.tools).toEqual(["a", "b"]);
  });

  it("groups calls into sets with holes made explicit, ignoring calls without a link", () => {
    const call = (over: Partial<VariantLink>, id: string) =>
      ({ id, startedAt: 1, variantSet: { ...link, ...over } }) as unknown as CallRecord;
    const sets = variantSetsOf([
      { id: "plain", startedAt: 0 } as CallRecord,
      call({ column: 0, turn: 0 }, "a0"),
      call({ column: 2, turn: 0 }, "c0"),
      call({ column: 0, turn: 1, prompt: "again" }, "a1"),
      call({ set: "other", column: 0 }, "x"),
    ]);
    expect(sets.map((set) => set.id)).toEqual(["s", "other"]);
    const [set] = sets;
    expect(set?.prompts).toEqual(["hi", "again"]);
    expect(set?.columns.map((column) => column.turns.map((turn) => turn?.id))).toEqual([
      ["a0", "a1"],
      [undefined, undefined],
      ["c0", undefined],
    ]);
    expect(set?.columns[1]?.setup.label).toBe("B");
  });
});

describe("a turn compared across columns", () => {
  const figures = (over: Partial<ReturnType<typeof turnFigures>>) => ({
    input: 10,
    cacheRead: 0,
    cacheWrite: 0,
    output: 20,
    cost: 0,
    firstTokenMs: 100,
    durationMs: 1000,
    payloadBytes: 500,
    stopReason: "stop",
    errorMessage: undefined,
    ...over,
  });

  it("marks the lowest of each figure, and none where all columns tie or only one has it", () => {
    const compared = compareTurn([
      figures({ output: 5, durationMs: 900 }),
      figures({ output: 30, durationMs: 900, payloadBytes: undefined }),
      figures({ firstTokenMs: undefined, payloadBytes: undefined, durationMs: 1200 }),
    ]);
    expect(compared.lowest.output).toEqual([0]);
    expect(compared.lowest.durationMs).toEqual([0, 1]);
    expect(compared.lowest.input).toEqual([]);
    expect(compared.lowest.payloadBytes).toEqual([]);
    expect(compared.lowest.firstTokenMs).toEqual([]);
    expect(compareTurn([undefined, figures({})]).lowest.output).toEqual([]);
  });

  it("reads a call's figures, payload size only when the payload was reported", () => {
    const call = {
      outcome: {
        stopReason: "stop",
        usage: { input: 3, output: 4, cacheRead: 0, cacheWrite: 0, totalTokens: 7, cost: { total: 0.5 } },
      },
      timing: { firstTokenMs: 12, durationMs: 40 },
    } as unknown as CallRecord;
    expect(turnFigures(call, { payload: { kept: "all", bytes: 99, value: {} } })).toMatchObject({
      input: 3,
      output: 4,
      cost: 0.5,
      firstTokenMs: 12,
      durationMs: 40,
      payloadBytes: 99,
    });
    expect(
      turnFigures(call, { payload: { kept: "none", bytes: 0, reason: "x" } }).payloadBytes,
    ).toBeUndefined();
  });
});

describe("an output shown in a column", () => {
  it("is cut to the limit and says how much it leaves out", () => {
    expect(shownOutput("short", 10)).toEqual({ text: "short", pieces: ["short"], hidden: 0 });
    const huge = "<script>alert(1)</script>".repeat(10_000);
    const shown = shownOutput(huge, 1000);
    expect(shown.text).toHaveLength(1000);
    expect(shown.hidden).toBe(huge.length - 1000);
  });

  it("changes only its last piece as it streams, so a frame's work does not grow with the output", () => {
    const chunks = Array.from({ length: 4_000 }, (_, index) => (index % 12 === 11 ? "word.\n\n" : "word "));
    let text = "";
    let before = shownOutput(text).pieces;
    for (const chunk of chunks) {
      text += chunk;
      const shown = shownOutput(text);
      // Every piece but the last is the one shown the frame before: the page leaves those alone.
      expect(shown.pieces.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
      expect(shown.pieces.length - before.length).toBeLessThanOrEqual(1);
      for (const piece of shown.pieces)
        expect(piece.length).toBeLessThanOrEqual(2 * VARIANT_OUTPUT_PIECE_CHARS);
      before = shown.pieces;
    }
    expect(before.length).toBeGreaterThan(20);
    expect(shownOutput(text).text).toHaveLength(Math.min(text.length, VARIANT_OUTPUT_SHOWN_CHARS));
  });
});
