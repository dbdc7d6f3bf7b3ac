import { viewModelTokens } from "../model-view/view-tokens.ts";
import type { Usage } from "@earendil-works/pi-ai";
import { estimateContextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { describe, expect, it, vi } from "vitest";
import { ChatSession } from "../agent/chat-session.svelte.ts";
import { useFakeProxy, world } from "../agent/chat-session.test-support.ts";
import { callTokens } from "../agent/recording/call-tokens.ts";
import { readBody } from "./call-body.ts";
import { SessionAnatomy } from "./anatomy-state.svelte.ts";

/**
 * Every token figure of a session, read where the page shows it, for sessions run through the real
 * session runtime (pi's Agent, the transcript, the call recorder): the inspector's model view, the
 * anatomy's next call and recorded calls, the calls view and the header's session usage. They are one
 * estimate (pi-ai's), anchored on the same usage, so they agree to the token.
 */

const proxy = useFakeProxy();

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

const textReply = (text: string, reported: Usage) => [
  { type: "start" },
  { type: "text_start", contentIndex: 0 },
  { type: "text_delta", contentIndex: 0, delta: text },
  { type: "text_end", contentIndex: 0 },
  { type: "done", reason: "stop", usage: reported },
];

const toolCall = (id: string, name: string, args: Record<string, unknown>, reported: Usage) => [
  { type: "start" },
  { type: "toolcall_start", contentIndex: 0, id, toolName: name },
  { type: "toolcall_delta", contentIndex: 0, delta: JSON.stringify(args) },
  { type: "toolcall_end", contentIndex: 0, toolCall: { type: "toolCall", id, name, arguments: args } },
  { type: "done", reason: "toolUse", usage: reported },
];

/** A reply stopped before the provider reported usage: its output is estimated from what streamed. */
const stoppedReply = (text: string) => [
  { type: "start" },
  { type: "text_start", contentIndex: 0 },
  { type: "text_delta", contentIndex: 0, delta: text },
  { type: "error", reason: "aborted", errorMessage: "Request was aborted", usage: usage(0, 0) },
];

type Scenario = (session: ChatSession) => Promise<void>;

/** What each session shows, so that a scenario that stopped exercising its case fails rather than passes. */
type Feature = "anchored" | "unanchored" | "tool results" | "images" | "estimated output";

const covers: Record<string, Feature[]> = {
  "a plain chat": ["anchored"],
  "tool calls and their results": ["anchored", "tool results"],
  "images, hidden facts and a message after the last usage": ["anchored", "images"],
  "a reply stopped before any usage, and no usage anywhere": ["unanchored", "estimated output"],
};

function features(session: ChatSession, anchored: boolean): Feature[] {
  const messages = session.modelView.messages;
  const found: Feature[] = [anchored ? "anchored" : "unanchored"];
  if (messages.some((message) => message.role === "toolResult")) found.push("tool results");
  if (
    messages.some(
      (message) =>
        message.role === "user" &&
        Array.isArray(message.content) &&
        message.content.some((part) => part.type === "image"),
    )
  )
    found.push("images");
  if (session.usage.outputEstimated) found.push("estimated output");
  return found;
}

const scenarios: Record<string, Scenario> = {
  "a plain chat": async (session) => {
    proxy.scripted = [
      textReply("Hello there.", usage(300, 12, 0, 300)),
      textReply("Again.", usage(20, 4, 300, 0)),
    ];
    await session.send("hello");
    await session.send("and again");
  },
  "tool calls and their results": async (session) => {
    proxy.scripted = [
      toolCall("call-1", "calculate", { expression: "12 * (3 + 4)" }, usage(410, 30, 0, 0)),
      textReply("It is 84.", usage(40, 8, 400, 0)),
      toolCall("call-2", "current_time", {}, usage(60, 20, 400, 0)),
      textReply("Noted the time.", usage(50, 6, 450, 10)),
    ];
    await session.send("What is 12 * (3 + 4)?");
    await session.send("And the time?");
  },
  "images, hidden facts and a message after the last usage": async (session) => {
    proxy.scripted = [textReply("A pixel.", usage(1_600, 5, 0, 0))];
    await session.inject(
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image", data: PIXEL, mimeType: "image/png" },
        ],
        timestamp: Date.now(),
      },
      "append",
    );
    await session.inject(
      { role: "notification", text: "hidden from the model", timestamp: Date.now() },
      "append",
    );
    await session.send("Describe it.");
    // After the last reply: estimated on top of its usage, the second image included.
    await session.inject(
      {
        role: "user",
        content: [
          { type: "text", text: "And this one, with a caption that runs on for a while." },
          { type: "image", data: PIXEL, mimeType: "image/png" },
        ],
        timestamp: Date.now(),
      },
      "append",
    );
  },
  "a reply stopped before any usage, and no usage anywhere": async (session) => {
    proxy.scripted = [
      stoppedReply("Forty characters that streamed already."),
      textReply("Done.", usage(0, 0)),
    ];
    await session.send("Start something long");
    await session.send("Never mind");
  },
};

describe("token totals agree to the token across the page", () => {
  for (const [name, run] of Object.entries(scenarios)) {
    it(name, async () => {
      const { store, tab } = world();
      const session = await ChatSession.create(tab("a"));
      await run(session);
      await session.saveNow();
      const requests = proxy.requests.length;
      await vi.waitFor(async () => expect((await store.listCalls(session.id)).calls).toHaveLength(requests));
      await session.calls.load();

      // The next call: the inspector's model view header, the anatomy's live composition, pi-ai.
      const anatomy = new SessionAnatomy(session);
      await anatomy.sync();
      const view = session.modelView;
      const next = anatomy.shown.composition?.total;
      expect(next).toBe(viewModelTokens(view));
      expect(viewModelTokens(view)).toBe(estimateContextTokens(view.messages).tokens);
      expect(viewModelTokens(view)).toBeGreaterThan(0);
      const basis = anatomy.shown.composition?.basis;
      expect(features(session, basis?.kind === "estimate" && basis.anchorIndex !== null)).toEqual(
        covers[name],
      );

      // Each recorded call: the calls view's numbers, the anatomy's, and its composition's total.
      const calls = session.calls.calls;
      expect(anatomy.calls.map((call) => call.seq)).toEqual(calls.map((call) => call.seq));
      for (const [index, call] of calls.entries()) {
        const shown = callTokens(call.outcome);
        const read = anatomy.calls[index];
        expect(read).toMatchObject({
          uncached: shown.input,
          cacheRead: shown.cacheRead,
          cacheWrite: shown.cacheWrite,
          output: shown.output,
        });
        const body = readBody(await session.calls.body(call.seq));
        if (body.kind !== "kept") throw new Error(`call ${call.seq} kept no messages`);
        const reported = shown.input + shown.cacheRead + shown.cacheWrite;
        const context = reported > 0 ? reported : estimateContextTokens(body.messages).tokens;
        expect(read?.contextTokens).toBe(context);
        await anatomy.select(call.seq);
        expect(anatomy.shown.composition?.total).toBe(context);
      }

      // The header: the session's usage is the sum of what the calls view shows, estimates included.
      const sum = (pick: (counts: ReturnType<typeof callTokens>) => number) =>
        calls.reduce((total, call) => total + pick(callTokens(call.outcome)), 0);
      expect(session.usage).toMatchObject({
        input: sum((counts) => counts.input),
        cacheRead: sum((counts) => counts.cacheRead),
        cacheWrite: sum((counts) => counts.cacheWrite),
        output: sum((counts) => counts.output),
        replies: calls.length,
      });
      expect(session.usage.output).toBe(anatomy.calls.reduce((total, call) => total + call.output, 0));
    });
  }
});
