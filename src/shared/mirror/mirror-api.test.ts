import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { createModels, type Message } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { describe, expect, it, vi } from "vitest";
import type { PayloadResponse } from "../api-types.ts";
import { DEMO_TOOL_NAMES } from "../demo-tool-names.ts";
import { HttpError } from "../http-error.ts";
import { MirrorApi } from "./mirror-api.ts";
import { createMirrorProvider } from "./mirror-provider.ts";
import { stoppedMirrorReply } from "./mirror.test-support.ts";

const api = new MirrorApi({ describeUnknownModel: (provider, id) => `No ${provider}/${id} here.` });

const system = {
  role: "system",
  content: "Be brief.",
  toolsAdded: Object.values(DEMO_TOOL_NAMES).map((name) => ({ name, description: name, parameters: {} })),
  timestamp: 0,
};
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const body = (id: string, messages: unknown[], options: Record<string, unknown> = {}) =>
  JSON.stringify({ model: { provider: "mirror", id }, context: { messages }, options });

async function collect(events: AsyncIterable<ProxyAssistantMessageEvent>) {
  const out: ProxyAssistantMessageEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function thrown(run: () => unknown): HttpError | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof HttpError ? error : undefined;
  }
  return undefined;
}

describe("MirrorApi", () => {
  it("lists the three offline models, and nothing else", async () => {
    const { models, warnings } = await api.listModels();
    expect(models.map((model) => model.id)).toEqual(["mirror", "mirror-thinking", "mirror-instant"]);
    expect(models.every((model) => model.offline && model.provider === "mirror")).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("streams the mirror's reply as proxy events, ending in done", async () => {
    const events = await collect(
      api.stream(body("mirror-instant", [system, user("hello")]), new AbortController().signal),
    );
    expect(events[0]).toEqual({ type: "start" });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    const text = events.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
    expect(text).toContain("I received 2 messages: system, user.");
    expect(text).toContain("> hello");
  });

  it("calls a declared tool, with a thinking block when reasoning is asked for", async () => {
    const events = await collect(
      api.stream(
        body("mirror-thinking", [system, user("what time is it")], { reasoning: "low" }),
        new AbortController().signal,
      ),
    );
    expect(events.map((event) => event.type)).toContain("thinking_start");
    expect(events.find((event) => event.type === "toolcall_end")).toMatchObject({
      toolCall: { name: DEMO_TOOL_NAMES.time, id: "mirror_2_0" },
    });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "toolUse" });
  });

  it("refuses other models and bad bodies before streaming, with the proxy's statuses", () => {
    const signal = new AbortController().signal;
    const unknown = thrown(() =>
      api.stream(
        JSON.stringify({ model: { provider: "openai", id: "gpt" }, context: { messages: [] } }),
        signal,
      ),
    );
    expect(unknown?.status).toBe(400);
    expect(unknown?.message).toBe("No openai/gpt here.");
    expect(thrown(() => api.stream("{", signal))?.status).toBe(400);
  });

  it("stops when aborted, and says so", async () => {
    const controller = new AbortController();
    const events: ProxyAssistantMessageEvent[] = [];
    for await (const event of api.stream(
      body("mirror", [system, user("a long one ".repeat(40))]),
      controller.signal,
    )) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: "error", reason: "aborted" });
  });

  describe("after a stopped reply and Retry", () => {
    const stopped = stoppedMirrorReply("I received 2 mess", 2);
    const sent = [system, user("hello"), stopped];

    it("counts and quotes what a provider receives after pi-ai's transform: the stopped reply is dropped", async () => {
      const models = createModels({
        authContext: { env: async () => undefined, fileExists: async () => false },
      });
      models.setProvider(createMirrorProvider());
      const model = models.getModel("mirror", "mirror-instant");
      if (!model) throw new Error("no mirror-instant model");
      const transformed = transformMessages(sent as Message[], model);
      expect(transformed.length).toBeLessThan(sent.length);
      const events = await collect(api.stream(body("mirror-instant", sent), new AbortController().signal));
      const text = events.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
      expect(text).toContain(
        `I received ${transformed.length} messages: ${transformed.map((message) => message.role).join(", ")}.`,
      );
    });

    it("keeps that list as the call's payload, and previews the same", async () => {
      const callId = "in-page-call-0001";
      await collect(
        api.stream(
          body("mirror-instant", sent, { metadata: { callId }, maxTokens: 99 }),
          new AbortController().signal,
        ),
      );
      const response = JSON.parse(await api.payload(callId)) as PayloadResponse;
      expect(response).toEqual({
        payload: {
          kept: "all",
          bytes: expect.any(Number),
          value: { model: "mirror-instant", messages: [system, user("hello")], options: { maxTokens: 99 } },
        },
      });
      const preview = JSON.parse(
        await api.preview(body("mirror-instant", sent, { maxTokens: 99 })),
      ) as PayloadResponse;
      expect(preview).toEqual(response);
    });
  });

  it("answers 404 for a call it did not serve", async () => {
    await expect(api.payload("not-a-known-call")).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/^No payload is kept for call not-a-known-call/),
    });
  });

  it("streams at the speed the request names, every reply of a paced model, and refuses one it does not offer", async () => {
    vi.useFakeTimers();
    try {
      /** How many tokens of a long reply arrive in the first second. */
      const tokensInOneSecond = async (model: string, metadata?: Record<string, unknown>) => {
        const controller = new AbortController();
        let deltas = 0;
        const consuming = (async () => {
          const request = body(model, [system, user("x ".repeat(1_000))], metadata ? { metadata } : {});
          for await (const event of api.stream(request, controller.signal)) {
            if (event.type === "text_delta") deltas++;
          }
        })();
        await vi.advanceTimersByTimeAsync(1_000);
        const counted = deltas;
        controller.abort();
        await vi.runAllTimersAsync();
        await consuming;
        return counted;
      };
      // One token (four characters) per chunk: the count is the pace. The default speeds long replies up.
      expect(await tokensInOneSecond("mirror", { mirrorTokensPerSecond: 5 })).toBeLessThanOrEqual(6);
      expect(await tokensInOneSecond("mirror", { mirrorTokensPerSecond: 5 })).toBeGreaterThanOrEqual(4);
      expect(await tokensInOneSecond("mirror", { mirrorTokensPerSecond: 75 })).toBeGreaterThanOrEqual(70);
      expect(await tokensInOneSecond("mirror", { mirrorTokensPerSecond: 75 })).toBeLessThanOrEqual(76);
      expect(await tokensInOneSecond("mirror")).toBeGreaterThan(500);
      // The unpaced model stays unpaced: it has finished long before the second is over.
      expect(await tokensInOneSecond("mirror-instant", { mirrorTokensPerSecond: 2 })).toBeGreaterThan(500);
    } finally {
      vi.useRealTimers();
    }
    for (const speed of [7, "5", 0, -1, null]) {
      const refused = thrown(() =>
        api.stream(
          body("mirror", [system, user("hi")], { metadata: { mirrorTokensPerSecond: speed } }),
          new AbortController().signal,
        ),
      );
      expect(refused?.status).toBe(400);
      expect(refused?.message).toContain("must be one of 2, 5, 15, 75, 300 (tokens per second)");
    }
  });
});
