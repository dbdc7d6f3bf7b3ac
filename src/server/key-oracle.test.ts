import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { proxyEventStream, sseFrame } from "../shared/proxy-events.ts";
import { MIRROR_PROVIDER_ID, MIRROR_UNPACED_ID } from "../shared/mirror/mirror-id.ts";
import { LOCAL_PROVIDER_ID } from "../shared/model-info.ts";
import {
  events,
  listenOnLoopback,
  sendRequest,
  TEST_LIMITS,
  auth,
  type Listening,
} from "./api-handler.test-support.ts";
import {
  PrefixHoldingScrubber,
  recoverKeys,
  replyShape,
  startEchoServer,
  type ReplyShape,
} from "./key-oracle.test-support.ts";
import { createModelRegistry, type ModelRegistry } from "./model-registry.ts";
import { ReplyScrubber } from "./reply-scrubber.ts";

/**
 * The reply scrubber must not reveal keys to someone who holds only the proxy token: they may spend, never
 * read. The attack makes a model echo guesses in four-character pieces (the offline Mirror quotes the
 * prompt; a model server that repeats the prompt stands for any model asked to), and reads where the reply
 * breaks. Against the scrubber that held back only tails that could begin a secret, it recovers every
 * configured key; against the proxy as it is, it recovers nothing.
 */

const OPENAI_KEY = "sk-test-Zq81xPf0Lm3vK7";
const ANTHROPIC_KEY = "sk-ant-9dQ2rTw5";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

let registry: ModelRegistry;
let proxy: Listening;
let echo: Awaited<ReturnType<typeof startEchoServer>>;

beforeAll(async () => {
  echo = await startEchoServer();
  registry = await createModelRegistry({
    env: {
      OPENAI_API_KEY: OPENAI_KEY,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      LOCAL_OPENAI_BASE_URL: echo.baseUrl,
    },
    builtins: false,
  });
  proxy = await listenOnLoopback({ registry, ...TEST_LIMITS });
});

afterAll(async () => {
  proxy.server.close();
  await echo.close();
});

interface Scrubber {
  scrub(event: ProxyAssistantMessageEvent): ProxyAssistantMessageEvent[];
}

/** The Mirror's reply to `prompt`, through `scrubber` as the proxy sends it, without HTTP in between. */
async function echoThrough(createScrubber: () => Scrubber, prompt: string): Promise<ReplyShape> {
  const model = registry.resolve(MIRROR_PROVIDER_ID, MIRROR_UNPACED_ID);
  if (!model) throw new Error("the offline model is missing");
  const scrubber = createScrubber();
  const sent: ProxyAssistantMessageEvent[] = [];
  const upstream = registry.models.streamSimple(model, {
    messages: [{ role: "user", content: prompt, timestamp: 1 }],
  });
  for await (const event of proxyEventStream(upstream)) sent.push(...scrubber.scrub(event));
  const frames = sent.map((event) => registry.redactor.serialized(sseFrame(event))).join("");
  return replyShape(events(frames), frames);
}

/** A model that repeats the prompt through the running proxy, asked with the token and nothing else. */
async function echoOverHttp(
  prompt: string,
  model = { provider: LOCAL_PROVIDER_ID, id: "echo" },
): Promise<ReplyShape> {
  const reply = await sendRequest(proxy.port, "/api/stream", {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      model,
      context: { messages: [{ role: "user", content: prompt, timestamp: 1 }] },
      options: {},
    }),
  });
  if (reply.status !== 200) throw new Error(`the proxy answered ${reply.status}: ${reply.body}`);
  return replyShape(events(reply.body), reply.body);
}

// Thousands of requests on a machine that may be busy: minutes are allowed, seconds are usual.
vi.setConfig({ testTimeout: 180_000 });

const attack = { alphabet: BASE64URL, maxLength: 40, alignments: 4 };
/** The requests an attack makes when no one-character guess stands out: one round over the alphabet. */
const ONE_ROUND = BASE64URL.length * attack.alignments;

describe("the reply scrubber reveals keys", () => {
  it("the attack recovers every configured key from nothing when the scrubber holds back only what could begin a key", async () => {
    const result = await recoverKeys(
      (prompt) => echoThrough(() => new PrefixHoldingScrubber(registry.redactor), prompt),
      { ...attack, maxRequests: 20_000 },
    );
    expect(result.keys.sort()).toEqual([ANTHROPIC_KEY, OPENAI_KEY].sort());
  });

  it("the same attack recovers nothing through the scrubber the proxy uses", async () => {
    const result = await recoverKeys(
      (prompt) => echoThrough(() => new ReplyScrubber(registry.redactor), prompt),
      { ...attack, maxRequests: 20_000 },
    );
    expect(result.keys).toEqual([]);
    // Every one-character guess came back shaped alike: there was nothing to follow.
    expect(result.requests).toBe(ONE_ROUND);
  });

  it("recovers nothing from the running proxy with its token, from nothing or from a known prefix", async () => {
    for (const knownPrefix of ["", "sk-", "sk-test-Zq81"]) {
      const result = await recoverKeys((prompt) => echoOverHttp(prompt), {
        ...attack,
        knownPrefix,
        maxRequests: 2_000,
      });
      expect(result, `starting from ${JSON.stringify(knownPrefix)}`).toEqual({
        keys: [],
        requests: ONE_ROUND,
      });
    }
  });

  it("recovers nothing through the offline model either, whose replies are sent as they come", async () => {
    const mirror = { provider: MIRROR_PROVIDER_ID, id: MIRROR_UNPACED_ID };
    const result = await recoverKeys((prompt) => echoOverHttp(prompt, mirror), {
      ...attack,
      maxRequests: 2_000,
    });
    expect(result).toEqual({ keys: [], requests: ONE_ROUND });
  });

  it("still replaces a whole key the model echoes, and only then does the reply differ", async () => {
    const whole = await echoOverHttp(OPENAI_KEY);
    const partial = await echoOverHttp(`${OPENAI_KEY.slice(0, -1)}x`);
    expect(whole.redacted).toBe(true);
    expect(partial.redacted).toBe(false);
  });
});
