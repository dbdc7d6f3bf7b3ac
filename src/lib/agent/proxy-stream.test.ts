import { mirrorTestModel } from "./mirror-model.test-support.ts";
import { normalizeContext, type Api, type Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import type { MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { createProxyStreamFn } from "./proxy-stream.ts";
import type { RecordedRequest, StreamRouter } from "./stream-route.ts";

const model = mirrorTestModel();

const done = () =>
  new Response(`data: ${JSON.stringify({ type: "done", reason: "stop", usage: zeroUsage() })}\n\n`, {
    headers: { "Content-Type": "text/event-stream" },
  });

describe("the stream function and the call's id", () => {
  it("names the call in the request's metadata and tells the route it left under that id", async () => {
    const bodies: { options: { metadata?: Record<string, unknown> } }[] = [];
    const sent: string[] = [];
    const router: StreamRouter = {
      route: async () => ({
        proxyUrl: "http://proxy.test",
        authToken: "t",
        transport: async (_input, init) => {
          bodies.push(JSON.parse(await new Response(init?.body).text()) as (typeof bodies)[number]);
          return done();
        },
        settled: () => undefined,
        sent: (callId) => sent.push(callId),
      }),
    };
    const answered: string[] = [];
    const streamFn = createProxyStreamFn({
      router,
      onRequest: () => "call-id-0001",
      onAnswered: (callId) => answered.push(callId),
    });
    const stream = await streamFn(model, normalizeContext({ messages: [] }), { metadata: { user: "kept" } });
    await stream.result();
    expect(sent).toEqual(["call-id-0001"]);
    expect(answered).toEqual(["call-id-0001"]);
    expect(bodies[0]?.options.metadata).toEqual({ user: "kept", callId: "call-id-0001" });
  });

  it("tells nobody the call was answered when its request never got an answer", async () => {
    const sent: string[] = [];
    const answered: string[] = [];
    const router: StreamRouter = {
      route: async () => ({
        proxyUrl: "http://proxy.test",
        authToken: "t",
        transport: async () => {
          throw new DOMException("The user aborted a request.", "AbortError");
        },
        settled: () => undefined,
        sent: (callId) => sent.push(callId),
      }),
    };
    const streamFn = createProxyStreamFn({
      router,
      onRequest: () => "call-id-0002",
      onAnswered: (callId) => answered.push(callId),
    });
    const stream = await streamFn(model, normalizeContext({ messages: [] }), {});
    const result = await stream.result();
    expect(result.stopReason).not.toBe("stop");
    expect(sent).toEqual([]);
    expect(answered).toEqual([]);
  });
});

const modelOf = (provider: string, id: string): Model<Api> => ({
  id,
  name: id,
  api: "mirror",
  provider,
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1,
  maxTokens: 1,
});

/** Send one request through the stream function, with pi's real streamProxy, and see what left. */
async function send(target: Model<Api>, speed: MirrorSpeed | undefined) {
  const bodies: { options: { metadata?: Record<string, unknown> } }[] = [];
  const recorded: RecordedRequest[] = [];
  const streamFn = createProxyStreamFn({
    router: {
      route: async () => ({
        proxyUrl: "http://in-page.invalid",
        authToken: "",
        transport: async (_input, init) => {
          bodies.push(JSON.parse(await new Response(init?.body).text()) as (typeof bodies)[number]);
          return done();
        },
        settled: () => undefined,
      }),
    },
    onRequest: (request) => {
      recorded.push(request);
      return "call-1";
    },
    mirrorSpeed: () => speed,
  });
  const stream = await streamFn(target, normalizeContext({ messages: [] }), {});
  await stream.result();
  return { body: bodies[0], recorded: recorded[0] };
}

describe("the stream function", () => {
  it("sends the chosen Mirror speed with each request for an offline model, and records it with the call", async () => {
    const { body, recorded } = await send(modelOf("mirror", "mirror"), 5);
    expect(body?.options.metadata).toEqual({ mirrorTokensPerSecond: 5, callId: "call-1" });
    expect(recorded?.options).toMatchObject({ metadata: { mirrorTokensPerSecond: 5 } });
  });

  it("sends no speed at the default pace, none for the unpaced model, and never to another provider", async () => {
    expect((await send(modelOf("mirror", "mirror"), undefined)).body?.options.metadata).toEqual({
      callId: "call-1",
    });
    expect((await send(modelOf("mirror", "mirror-instant"), 5)).body?.options.metadata).toEqual({
      callId: "call-1",
    });
    const other = await send(modelOf("openai", "gpt-5"), 5);
    expect(other.body?.options.metadata).toEqual({ callId: "call-1" });
    expect(other.recorded?.options).not.toHaveProperty("metadata");
  });

  it("sends the session's sampling with every request, and records it with the call", async () => {
    const bodies: { options: Record<string, unknown> }[] = [];
    const recorded: RecordedRequest[] = [];
    const router: StreamRouter = {
      route: async () => ({
        proxyUrl: "http://proxy.test",
        authToken: "t",
        transport: async (_input, init) => {
          bodies.push(JSON.parse(await new Response(init?.body).text()) as (typeof bodies)[number]);
          return done();
        },
        settled: () => undefined,
      }),
    };
    const streamFn = createProxyStreamFn({
      router,
      onRequest: (request) => void recorded.push(request),
      // Top p is for OpenAI-compatible APIs only; the out-of-range top k is never sent.
      sampling: () => ({ temperature: 0.25, maxTokens: 64, params: { top_p: 0.5, top_k: -3 } }),
    });
    await (await streamFn(model, normalizeContext({ messages: [] }), { reasoning: "low" })).result();
    expect(bodies[0]?.options).toMatchObject({ temperature: 0.25, maxTokens: 64, reasoning: "low" });
    expect(bodies[0]?.options.samplingParams).toBeUndefined();
    expect(recorded[0]?.options).toEqual({ temperature: 0.25, maxTokens: 64, reasoning: "low" });
    const openai: Model<Api> = { ...model, api: "openai-completions" };
    await (await streamFn(openai, normalizeContext({ messages: [] }), {})).result();
    expect(bodies[1]?.options.samplingParams).toEqual({ top_p: 0.5 });
    expect(recorded[1]?.options).toMatchObject({ samplingParams: { top_p: 0.5 } });
  });
});
