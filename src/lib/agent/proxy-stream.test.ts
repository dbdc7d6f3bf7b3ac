import { normalizeContext, type Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { createProxyStreamFn, type StreamRouter } from "./proxy-stream.ts";

const model: Model<"mirror"> = {
  id: "m",
  name: "m",
  api: "mirror",
  provider: "mirror",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1,
  maxTokens: 1,
};

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
          bodies.push(JSON.parse(String(init?.body)) as (typeof bodies)[number]);
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
