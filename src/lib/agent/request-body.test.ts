import { mirrorTestModel } from "./mirror-model.test-support.ts";
import { streamProxy } from "@earendil-works/pi-agent-core";
import {
  normalizeContext,
  type Message,
  type Model,
  type Tool,
  type TranscriptContext,
} from "@earendil-works/pi-ai";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { anyText, jsonLike } from "../../shared/json-values.test-support.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { createProxyStreamFn } from "./proxy-stream.ts";
import { chunkPreparer, idleTime, messagesJsonParts, prepareWhenIdle } from "./request-body.ts";
import { withFetch } from "./scoped-fetch.ts";
import type { StreamRouter } from "./stream-route.ts";

const done = () =>
  new Response(`data: ${JSON.stringify({ type: "done", reason: "stop", usage: zeroUsage() })}\n\n`, {
    headers: { "Content-Type": "text/event-stream" },
  });

/** The bytes pi's own streamProxy sends for this request (its body, captured by a fetch of the test's). */
async function piBody(model: Model<string>, context: TranscriptContext, options: Record<string, unknown>) {
  let body: BodyInit | null | undefined;
  const stream = withFetch(
    async (_input, init) => {
      body = init?.body;
      return done();
    },
    () => streamProxy(model, context, { ...options, proxyUrl: "http://proxy.test", authToken: "t" }),
  );
  await stream.result();
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** The bytes the app's stream function sends for the same request. */
async function appBody(model: Model<string>, context: TranscriptContext, options: Record<string, unknown>) {
  let body: BodyInit | null | undefined;
  const router: StreamRouter = {
    route: async () => ({
      proxyUrl: "http://proxy.test",
      authToken: "t",
      transport: async (_input, init) => {
        body = init?.body;
        return done();
      },
      settled: () => undefined,
    }),
  };
  const stream = await createProxyStreamFn({ router, onRequest: () => undefined })(model, context, options);
  await stream.result();
  return new Uint8Array(await new Response(body).arrayBuffer());
}

const text = anyText;
const value = jsonLike();

// Typed as pi's messages (the generated `details` and arguments are JSON with undefined in places, as a
// message read back from anywhere may carry).
const message = fc.oneof(
  fc.record({
    role: fc.constant("user" as const),
    content: fc.oneof(text, fc.array(fc.record({ type: fc.constant("text" as const), text }))),
    timestamp: fc.integer(),
  }),
  fc.record({
    role: fc.constant("toolResult" as const),
    toolCallId: text,
    toolName: text,
    content: fc.array(fc.record({ type: fc.constant("text" as const), text })),
    details: value,
    isError: fc.boolean(),
    timestamp: fc.integer(),
  }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant("text" as const), text }),
        fc.record({
          type: fc.constant("toolCall" as const),
          id: text,
          name: text,
          arguments: fc.dictionary(text, value, { maxKeys: 3 }),
        }),
      ),
    ),
    api: text,
    provider: text,
    model: text,
    usage: fc.constant(zeroUsage()),
    stopReason: fc.constantFrom("stop" as const, "toolUse" as const),
    timestamp: fc.integer(),
  }),
) as fc.Arbitrary<Message>;

const tool: fc.Arbitrary<Tool> = fc.record({
  name: text,
  description: text,
  parameters: fc.constant({ type: "object", properties: {} }) as fc.Arbitrary<Tool["parameters"]>,
});

const model = (id: string, name: string): Model<string> => mirrorTestModel(id, name);

/**
 * A session: a few distinct message objects, placed at many positions (the same object may recur, as a
 * sent fact recurs in no real session but chunking must not mind), long enough for several chunks.
 */
const session = fc
  .tuple(fc.array(message, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 1_500 }))
  .map(([pool, picks]) =>
    picks.map((pick) =>
      pick % 3 === 0 ? pool[pick % pool.length] : structuredClone(pool[pick % pool.length]),
    ),
  )
  .map((messages) => messages.filter((entry): entry is Message => entry !== undefined));

describe("the request body", () => {
  it("is byte for byte the body pi's own streamProxy sends, for any context and options, cached or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        session,
        fc.option(text, { nil: undefined }),
        fc.option(fc.array(tool, { maxLength: 3 }), { nil: undefined }),
        fc.record(
          {
            temperature: fc.double({ noNaN: true }),
            maxTokens: fc.nat(),
            sessionId: text,
            metadata: fc.dictionary(text, value, { maxKeys: 3 }),
          },
          { requiredKeys: [] },
        ),
        text,
        fc.nat(),
        async (messages, systemPrompt, tools, options, name, cut) => {
          const context = normalizeContext({
            ...(systemPrompt === undefined ? {} : { systemPrompt }),
            messages,
            ...(tools === undefined ? {} : { tools }),
          });
          const the = model("m", name);
          expect(await appBody(the, context, options)).toEqual(await piBody(the, context, options));
          // The session again, its chunks now cached, with a message taken out and one added at the end.
          const sent = context.messages;
          const at = sent.length > 0 ? cut % sent.length : 0;
          const later = [...sent.slice(0, at), ...sent.slice(at + 1), { ...sent[0] } as Message];
          const next = { ...context, messages: sent.length > 0 ? later : [] };
          expect(await appBody(the, next, options)).toEqual(await piBody(the, next, options));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reuses the JSON of the messages sent before instead of serializing them again", async () => {
    const messages: Message[] = Array.from({ length: 3_000 }, (_, index) => ({
      role: "user",
      content: `message ${index}`,
      timestamp: index,
    }));
    const first = await messagesJsonParts(messages);
    const second = await messagesJsonParts([...messages, { role: "user", content: "next", timestamp: 0 }]);
    const firstBlobs = first.filter((part) => part instanceof Blob);
    const reused = second.filter((part) => part instanceof Blob && firstBlobs.includes(part));
    // Every chunk but the open one at the end is kept; the second request reuses all of them.
    expect(firstBlobs.length).toBeGreaterThan(0);
    expect(reused).toEqual(firstBlobs);
  });

  it("is the array's JSON for sessions long enough for chunks of every level, as they grow and change", async () => {
    const messages: Message[] = Array.from({ length: 40_000 }, (_, index) => ({
      role: "user",
      content: `long ${index}`,
      timestamp: index,
    }));
    const read = async (list: readonly Message[]) =>
      new Blob(await messagesJsonParts(list, async () => undefined)).text();
    expect(await read(messages)).toBe(JSON.stringify(messages));
    const changed = [...messages.slice(0, 9_000), ...messages.slice(9_001), messages[5] as Message];
    expect(await read(changed)).toBe(JSON.stringify(changed));
    // Composed of chunks of higher levels, not one part per chunk of messages: 40,000 messages make about
    // 625 chunks of the lowest level (1,250 parts with their commas). Where chunks end is drawn at random, so
    // the count varies (median 53, 185 the most in 150 draws): the bound is the lowest level's count.
    expect((await messagesJsonParts(changed)).length).toBeLessThan(40_000 / 64);
  });

  it("serializes in slices, giving the page's thread back between them once a slice's time is spent", async () => {
    const messages: Message[] = Array.from({ length: 5_000 }, (_, index) => ({
      role: "user",
      content: `fresh ${index}`,
      timestamp: index,
    }));
    let clock = 0;
    let pauses = 0;
    // A clock that moves a millisecond per look: the slices' length is counted, not timed.
    const parts = await messagesJsonParts(
      messages,
      async () => void pauses++,
      () => clock++,
    );
    expect(pauses).toBeGreaterThan(0);
    expect(await new Blob(parts).text()).toBe(JSON.stringify(messages));
  });

  it("serializes a message holding a huge text in slices, as pi would, and keeps its JSON for the next request", async () => {
    const huge = `${"y".repeat(2.5 * 1024 * 1024)}\u{1F600}"\n`;
    const messages: Message[] = [
      { role: "user", content: "before", timestamp: 1 },
      { role: "user", content: [{ type: "text", text: huge }], timestamp: 2 },
      { role: "user", content: "after", timestamp: 3 },
    ];
    let pauses = 0;
    let clock = 0;
    // A clock that moves 10 ms per look: every step spends a slice, so each step is followed by a pause.
    const parts = await messagesJsonParts(
      messages,
      async () => void pauses++,
      () => (clock += 10),
    );
    expect(await new Blob(parts).text()).toBe(JSON.stringify(messages));
    // The 2.5 MB text is escaped in slices of a quarter of a megabyte: not one step.
    expect(pauses).toBeGreaterThanOrEqual(10);
    // The next request finds the huge message's JSON made: no slices of it again.
    pauses = 0;
    const again = await messagesJsonParts(
      messages,
      async () => void pauses++,
      () => (clock += 10),
    );
    expect(pauses).toBeLessThan(2);
    expect(await new Blob(again).text()).toBe(JSON.stringify(messages));
    const { model: the, context } = {
      model: model("m", "n"),
      context: normalizeContext({ messages }),
    };
    // Compared as bytes at once: a deep equality walks 2.5 million elements one by one.
    const [app, pi] = [await appBody(the, context, {}), await piBody(the, context, {})];
    expect(app.length).toBe(pi.length);
    expect(Buffer.compare(app, pi)).toBe(0);
  });

  it("prepares the chunks of a session while there is time, and the request then serializes none of them", async () => {
    const messages: Message[] = Array.from({ length: 3_000 }, (_, index) => ({
      role: "user",
      content: `prepared ${index}`,
      timestamp: index,
    }));
    let looks = 0;
    // Out of time after two chunks: not done, and done when asked again with time to spare.
    const prepare = chunkPreparer(() => messages);
    expect(prepare(() => looks++ < 2)).toBe(false);
    expect(prepare(() => true)).toBe(true);
    let pauses = 0;
    const parts = await messagesJsonParts(
      messages,
      async () => void pauses++,
      () => 0,
    );
    const fresh = parts.filter((part) => typeof part === "string" && part.length > 1);
    // Only the open chunk at the end is serialized as the request is made.
    expect(fresh.length).toBeLessThanOrEqual(1);
    expect(await new Blob(parts).text()).toBe(JSON.stringify(messages));
  });

  it("goes on where the last idle period left the same list, so a large one gets done one step at a time", () => {
    const messages: Message[] = Array.from({ length: 20_000 }, (_, index) => ({
      role: "user",
      content: `resumed ${index}`,
      timestamp: index,
    }));
    let list: readonly Message[] = messages;
    const prepare = chunkPreparer(() => list);
    // Each idle period has time for one step only. Starting again each time would walk the list's first
    // slice of chunk ends over and over and never get done.
    let periods = 1;
    while (!prepare(() => false) && periods < 5_000) periods++;
    expect(periods).toBeLessThan(5_000);
    expect(periods).toBeGreaterThan(20_000 / 2_048);
    // Done: the same list asks for nothing more; a new one starts afresh.
    expect(prepare(() => false)).toBe(true);
    list = [...messages, { role: "user", content: "one more", timestamp: 20_000 }];
    expect(prepare(() => false)).toBe(false);
  });

  it("uses at most a slice of an idle period, however long the browser grants", () => {
    let clock = 0;
    let remaining = 50;
    const hasTime = idleTime({ didTimeout: false, timeRemaining: () => remaining }, () => clock);
    const steps: boolean[] = [];
    for (; clock <= 20; clock += 2) steps.push(hasTime());
    // Ten milliseconds of a fifty-millisecond period: steps at 0, 2, …, 8 ms, then no more.
    expect(steps.filter(Boolean)).toHaveLength(5);
    expect(steps.slice(0, 5).every(Boolean)).toBe(true);
    // A period nearly over ends the slice sooner.
    const late = idleTime({ didTimeout: false, timeRemaining: () => remaining }, () => 0);
    remaining = 3;
    expect(late()).toBe(false);
  });

  it("prepares while idle a slice at a time, asking for another idle period rather than using a long one whole", () => {
    const periods: IdleRequestCallback[] = [];
    vi.stubGlobal("requestIdleCallback", (callback: IdleRequestCallback) => periods.push(callback));
    vi.stubGlobal("cancelIdleCallback", () => undefined);
    // Every reading of the clock is a millisecond later; the browser's period never runs short.
    let clock = 0;
    vi.spyOn(performance, "now").mockImplementation(() => clock++);
    try {
      const messages: Message[] = Array.from({ length: 20_000 }, (_, index) => ({
        role: "user",
        content: `idle ${index}`,
        timestamp: index,
      }));
      prepareWhenIdle(() => messages);
      expect(periods).toHaveLength(1);
      periods[0]?.({ didTimeout: false, timeRemaining: () => 50 });
      // The slice ended long before the work did: the rest waits for the next idle period.
      expect(periods).toHaveLength(2);
      expect(clock).toBeLessThan(40);
    } finally {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });

  it("prepares nothing while the page is scrolled, and goes on once the scrolling has stopped", () => {
    const periods: IdleRequestCallback[] = [];
    vi.stubGlobal("requestIdleCallback", (callback: IdleRequestCallback) => periods.push(callback));
    vi.stubGlobal("cancelIdleCallback", () => undefined);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const period: IdleDeadline = { didTimeout: false, timeRemaining: () => 50 };
    const messages: Message[] = [{ role: "user", content: "scrolled past", timestamp: 0 }];
    let asked = 0;
    let quietIn = 400;
    try {
      prepareWhenIdle(
        () => {
          asked++;
          return messages;
        },
        { untilQuiet: () => quietIn },
      );
      periods[0]?.(period);
      // Scrolled a moment ago: the idle period passes without touching the session, and no other is asked
      // for (which would run between the scroll's frames) until the scrolling has stopped.
      expect(asked).toBe(0);
      expect(periods).toHaveLength(1);
      quietIn = 0;
      vi.advanceTimersByTime(400);
      expect(periods).toHaveLength(2);
      periods[1]?.(period);
      expect(asked).toBe(1);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });
});
