import { normalizeContext, type Api, type Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import type { MirrorSpeed } from "../../shared/mirror/mirror-speed.ts";
import { createProxyStreamFn, type RecordedRequest } from "./proxy-stream.ts";

const model = (provider: string, id: string): Model<Api> => ({
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

const done = () =>
  new Response(
    `data: ${JSON.stringify({
      type: "done",
      reason: "stop",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
    })}\n\n`,
    { headers: { "Content-Type": "text/event-stream" } },
  );

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
          bodies.push(JSON.parse(String(init?.body)) as (typeof bodies)[number]);
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
    const { body, recorded } = await send(model("mirror", "mirror"), 5);
    expect(body?.options.metadata).toEqual({ mirrorTokensPerSecond: 5, callId: "call-1" });
    expect(recorded?.options).toMatchObject({ metadata: { mirrorTokensPerSecond: 5 } });
  });

  it("sends no speed at the default pace, none for the unpaced model, and never to another provider", async () => {
    expect((await send(model("mirror", "mirror"), undefined)).body?.options.metadata).toEqual({
      callId: "call-1",
    });
    expect((await send(model("mirror", "mirror-instant"), 5)).body?.options.metadata).toEqual({
      callId: "call-1",
    });
    const other = await send(model("openai", "gpt-5"), 5);
    expect(other.body?.options.metadata).toEqual({ callId: "call-1" });
    expect(other.recorded?.options).not.toHaveProperty("metadata");
  });
});
