import { streamProxy } from "@earendil-works/pi-agent-core";
import { normalizeContext, type Api, type Model } from "@earendil-works/pi-ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiUrl } from "../../shared/api-routes.ts";
import { fuzzParameters } from "../messages/fuzz.test-support.ts";
import { withFetch } from "./scoped-fetch.ts";
import { sentOptions } from "./stream-route.ts";

const model: Model<Api> = {
  id: "m",
  name: "m",
  api: "mirror",
  provider: "mirror",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1,
  maxTokens: 1,
};

/** The URL and body pi's own `streamProxy` sends for these options (the request is answered with a 500). */
async function whatPiSends(options: Record<string, unknown>): Promise<{ url: string; options: unknown }> {
  let sent: { url: string; options: unknown } | undefined;
  const capture: typeof fetch = async (input, init) => {
    sent = {
      url: String(input),
      options: (JSON.parse(String(init?.body)) as { options: unknown }).options,
    };
    return new Response("{}", { status: 500 });
  };
  const stream = withFetch(capture, () =>
    streamProxy(model, normalizeContext({ messages: [] }), {
      ...options,
      proxyUrl: "http://proxy.test",
      authToken: "t",
    }),
  );
  await stream.result();
  if (!sent) throw new Error("streamProxy sent nothing");
  return sent;
}

const json = fc.jsonValue({ maxDepth: 2 });
/** Every stream option pi-ai knows, and a few it does not, each present or not, with any JSON value. */
const streamOptions = fc.record(
  {
    temperature: fc.double({ noNaN: true, noDefaultInfinity: true }),
    samplingParams: json,
    maxTokens: fc.nat(),
    reasoning: fc.constantFrom("minimal", "low", "medium", "high", "xhigh"),
    cacheRetention: fc.constantFrom("none", "short", "long"),
    sessionId: fc.string(),
    disableContinuation: fc.boolean(),
    headers: fc.dictionary(fc.string(), fc.string()),
    metadata: fc.dictionary(fc.string(), json),
    transport: fc.constantFrom("sse", "websocket", "auto"),
    thinkingBudgets: fc.dictionary(fc.constantFrom("low", "medium", "high"), fc.nat()),
    maxRetryDelayMs: fc.nat(),
    // Options pi never sends through a proxy: the key stays on the server, callbacks cannot travel.
    apiKey: fc.string(),
    maxRetries: fc.nat(),
    timeoutMs: fc.nat(),
    somethingNew: json,
  },
  { requiredKeys: [] },
);

describe("the options the proxy stream sends are pi's", () => {
  it("records exactly the options pi's streamProxy puts in its request body, for any options", async () => {
    await fc.assert(
      fc.asyncProperty(streamOptions, async (options) => {
        const pi = await whatPiSends(options);
        expect(JSON.parse(JSON.stringify(sentOptions(options)))).toEqual(pi.options);
      }),
      fuzzParameters(200),
    );
  });

  it("sends to the stream route of the shared route table", async () => {
    expect((await whatPiSends({})).url).toBe(apiUrl("http://proxy.test", "stream"));
  });
});
