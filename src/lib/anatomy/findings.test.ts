import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { Fate } from "../model-view/project.ts";
import { analyze, assistant, syntheticSession, system, toolResult, user } from "./anatomy.test-support.ts";
import type { CallBody } from "./call-body.ts";
import { compose, type MessageSource } from "./composition.ts";
import { EntryIndex } from "./entry-index.ts";
import {
  cacheBreaks,
  duplicates,
  findings,
  hiddenDecisions,
  largeToolResults,
  nearWindow,
  unusedTools,
  type FindingsInput,
} from "./findings.ts";
import { rebill } from "./rebilling.ts";

/** Findings of the synthetic session, its next call being its last call's messages unless given. */
function input(
  options: {
    session?: ReturnType<typeof syntheticSession>;
    window?: number;
    next?: { messages: Message[]; sources: MessageSource[] };
    path?: FindingsInput["path"];
    calledTools?: string[];
  } = {},
): FindingsInput {
  const session = options.session ?? syntheticSession();
  const calls = analyze(session, () => options.window ?? 100_000);
  const index = new EntryIndex(session.entries);
  const last = session.bodies.at(-1) as Extract<CallBody, { kind: "kept" }>;
  const next = options.next ?? { messages: last.messages, sources: index.sources(last.sources) };
  return {
    calls,
    rebilling: rebill(calls),
    next: { ...next, composition: compose(next.messages, next.sources), window: options.window ?? 100_000 },
    path: options.path ?? [],
    roleOf: (id) => index.roleOf(id),
    calledTools: new Set(options.calledTools ?? ["calculate"]),
  };
}

describe("large tool results", () => {
  it("fire for a result past the threshold, with its calls and tokens, linked to it", () => {
    const session = syntheticSession();
    const [found] = largeToolResults(input({ session }));
    expect(found?.link).toEqual({ kind: "fact", entryId: session.id(3) });
    expect(found?.title).toBe("A tool result of 3,835 tokens");
    expect(found?.evidence).toMatch(/^Sent 2 times \(calls #2 to #3\): 7,824 tokens of input so far/);
  });

  it("stay quiet for small results", () => {
    const session = syntheticSession();
    session.bodies = session.bodies.map((body) =>
      body.kind === "kept"
        ? {
            ...body,
            messages: body.messages.map((m) =>
              m.role === "toolResult" ? toolResult("c1", "calculate", "84") : m,
            ),
          }
        : body,
    );
    session.calls = session.calls.map((call) => ({
      ...call,
      outcome: { ...call.outcome, usage: { ...call.outcome.usage, input: 10, cacheRead: 0 } },
    }));
    expect(largeToolResults(input({ session }))).toEqual([]);
  });
});

describe("tools never called", () => {
  const tools = system("You help.", ["current_time", "calculate"]);
  const next = {
    messages: [tools, user("hi")],
    sources: [
      { entryId: "sys", role: "system" },
      { entryId: "u", role: "user" },
    ],
  };

  it("fire for a declared tool no call used, linked to the system message", () => {
    const found = unusedTools(input({ next, calledTools: ["calculate"] }));
    expect(found.map((finding) => finding.title)).toEqual(["Tool “current_time” is never called"]);
    expect(found[0]?.link).toEqual({ kind: "fact", entryId: "sys" });
  });

  it("stay quiet when every tool was called, or before any call", () => {
    expect(unusedTools(input({ next, calledTools: ["calculate", "current_time"] }))).toEqual([]);
    const none = input({ next, calledTools: [] });
    expect(unusedTools({ ...none, calls: [] })).toEqual([]);
  });
});

describe("context near the window", () => {
  it("fires for a call above 80% of its window, linked to the call", () => {
    const found = nearWindow(input({ window: 6_000 }));
    expect(found.map((finding) => finding.link)).toEqual([{ kind: "call", seq: 2 }]);
    expect(found[0]?.title).toBe("Call #3 filled 83% of the context window");
  });

  it("stays quiet below it, and when the window is unknown", () => {
    expect(nearWindow(input({ window: 7_000 }))).toEqual([]);
    const unknown = input({ window: 6_000 });
    expect(
      nearWindow({
        ...unknown,
        calls: unknown.calls.map((call) => ({ ...call, window: undefined })),
        next: { ...unknown.next, window: undefined },
      }),
    ).toEqual([]);
  });
});

describe("decisions hidden from the model", () => {
  const approval = (status: "approved" | "pending", toolCallId?: string): AgentMessage => ({
    role: "approval_request",
    action: "Deploy to production",
    status,
    ...(toolCallId ? { toolCallId } : {}),
    timestamp: 5,
  });
  const at = (fact: AgentMessage, fate: Fate) => [{ entryId: "ap", fact, fate }];

  it("fire for a decided approval the policy hides, linked to it", () => {
    const found = hiddenDecisions(input({ path: at(approval("approved"), "hidden") }));
    expect(found.map((finding) => [finding.title, finding.link])).toEqual([
      ["“Deploy to production” was approved, and the model is not told", { kind: "fact", entryId: "ap" }],
    ]);
  });

  it("stay quiet for pending ones, ones sent as user text, and tool approvals whose result is sent", () => {
    expect(hiddenDecisions(input({ path: at(approval("pending"), "hidden") }))).toEqual([]);
    expect(hiddenDecisions(input({ path: at(approval("approved"), "converted") }))).toEqual([]);
    expect(hiddenDecisions(input({ path: at(approval("approved", "c1"), "hidden") }))).toEqual([]);
  });
});

describe("prompt cache breaks", () => {
  it("fire where a call stops sharing the previous call's prefix, naming the fact", () => {
    const session = syntheticSession();
    // The second call's tool result is sent with new content in the third (a context edit, say).
    const third = session.bodies[2] as Extract<CallBody, { kind: "kept" }>;
    session.bodies[2] = {
      ...third,
      messages: third.messages.map((m) =>
        m.role === "toolResult" ? toolResult("c1", "calculate", "R".repeat(3_989), 9) : m,
      ),
    };
    const found = cacheBreaks(input({ session }));
    expect(found).toHaveLength(1);
    expect(found[0]?.link).toEqual({ kind: "fact", entryId: session.id(3) });
    expect(found[0]?.evidence).toMatch(
      /^It shares 3 leading messages of the previous call's 4: this toolResult was sent with new content/,
    );
  });

  it("stay quiet when each call extends the one before", () => {
    expect(cacheBreaks(input())).toEqual([]);
  });
});

describe("the same content sent twice", () => {
  const long = "The same long file content. ".repeat(20);
  const sources = (n: number): MessageSource[] =>
    Array.from({ length: n }, (_, i) => ({ entryId: `e${i}`, role: i === 2 ? "toolResult" : "user" }));

  it("fires for identical long text in two messages, linked to the repeat", () => {
    const messages = [user(long), assistant("ok"), toolResult("c", "read", long)];
    const found = duplicates(input({ next: { messages, sources: sources(3) } }));
    expect(found).toHaveLength(1);
    expect(found[0]?.link).toEqual({ kind: "fact", entryId: "e2" });
    expect(found[0]?.evidence).toMatch(
      /^Messages 1, 3 of the next call carry identical text \(user, toolResult\)/,
    );
  });

  it("stays quiet for short repeats and for different texts", () => {
    const short = [user("ok"), assistant("ok"), user("ok")];
    expect(duplicates(input({ next: { messages: short, sources: sources(3) } }))).toEqual([]);
    const different = [user(long), toolResult("c", "read", `${long}!`)];
    expect(duplicates(input({ next: { messages: different, sources: sources(2) } }))).toEqual([]);
  });
});

it("gathers every kind of finding in one list", () => {
  const all = findings(input({ window: 6_000, calledTools: [] }));
  expect(new Set(all.map((finding) => finding.kind))).toEqual(new Set(["largeToolResult", "nearWindow"]));
});
