import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PayloadResponse } from "../shared/api-types.ts";
import { countOf } from "../shared/count-of.ts";
import { zeroUsage } from "../shared/usage.ts";
import { DEMO_TOOL_NAMES } from "../shared/demo-tool-names.ts";
import { MirrorApi } from "../shared/mirror/mirror-api.ts";
import { createApiHandler, DEFAULT_LIMITS } from "./api-handler.ts";
import { createModelRegistry, type ModelRegistry } from "./model-registry.ts";
import { LOOPBACK_HOSTNAMES } from "./request-guard.ts";

/**
 * Without a server the page answers the offline models itself (MirrorApi). The experience must be the
 * same: for the same request, the proxy and the in-page API send the same events, keep the same payload,
 * preview the same, and list the same models.
 */

const TOKEN = "parity-token-0123456789";
let server: Server;
let port: number;
let registry: ModelRegistry;
const inPage = new MirrorApi({ describeUnknownModel: () => "unknown" });

beforeAll(async () => {
  registry = await createModelRegistry({ env: {}, builtins: false });
  const handler = createApiHandler({
    registry,
    token: TOKEN,
    hostnames: LOOPBACK_HOSTNAMES,
    ...DEFAULT_LIMITS,
    log: () => undefined,
  });
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => server.close());

function viaProxy(
  path: string,
  body?: string,
  method = body === undefined ? "GET" : "POST",
  signal?: AbortSignal,
  onData?: (chunk: string) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        signal,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          onData?.(chunk);
        });
        res.on("end", () => resolve(text));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A few turns of the real event loop (sockets), which a faked `setTimeout` does not stop. */
async function realTurns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await realTurns(1);
}

const dataLines = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as ProxyAssistantMessageEvent);

async function inPageEvents(body: string): Promise<ProxyAssistantMessageEvent[]> {
  const events: ProxyAssistantMessageEvent[] = [];
  for await (const event of inPage.stream(body, new AbortController().signal)) events.push(event);
  return events;
}

const system = {
  role: "system",
  content: "Be brief.",
  toolsAdded: Object.values(DEMO_TOOL_NAMES).map((name) => ({ name, description: name, parameters: {} })),
  timestamp: 0,
};
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const toolTurn = [
  system,
  user("compute 6 * 7"),
  {
    role: "assistant",
    content: [{ type: "toolCall", id: "mirror_2_0", name: "calculate", arguments: { expression: "6 * 7" } }],
    api: "mirror",
    provider: "mirror",
    model: "mirror-instant",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "toolUse",
    timestamp: 2,
  },
  {
    role: "toolResult",
    toolCallId: "mirror_2_0",
    toolName: "calculate",
    content: [{ type: "text", text: "6 * 7 = 42" }],
    isError: false,
    timestamp: 3,
  },
];

/** A reply the person stopped: pi-ai's provider transform drops it, so the mirror must not count it. */
const stopped = {
  role: "assistant",
  content: [{ type: "text", text: "I received 2 mess" }],
  api: "mirror",
  provider: "mirror",
  model: "mirror-instant",
  usage: zeroUsage(),
  stopReason: "aborted",
  timestamp: 2,
};

/** A tool a person defined in the page, which Mirror calls when asked by name. */
const withUserTool = {
  ...system,
  toolsAdded: [
    ...system.toolsAdded,
    { name: "lookup_order", description: "Looks up an order.", parameters: { type: "object" } },
  ],
};

const CASES: [string, string, unknown[], Record<string, unknown>][] = [
  ["a plain question", "mirror-instant", [system, user("hello there")], {}],
  ["a retry after a stopped reply", "mirror-instant", [system, user("hello there"), stopped], {}],
  ["a tool call", "mirror-instant", [system, user("what time is it, and 2 + 3?")], {}],
  ["tool results", "mirror-instant", toolTurn, {}],
  ["show context", "mirror-instant", [system, user("show context")], {}],
  ["thinking", "mirror-thinking", [system, user("save a note: milk")], { reasoning: "low" }],
  ["a chosen speed", "mirror", [system, user("fast")], { metadata: { mirrorTokensPerSecond: 300 } }],
  [
    "a tool asked for by name",
    "mirror-instant",
    [withUserTool, user('call lookup_order with {"id": 7}')],
    {},
  ],
];

describe("the offline models with and without a server", () => {
  it.each(CASES)(
    "stream the same events for %s, and keep the same payload",
    async (name, id, messages, options) => {
      const callId = `parity-${name.replaceAll(" ", "-")}`;
      const body = JSON.stringify({
        model: { provider: "mirror", id },
        context: { messages },
        options: { ...options, metadata: { callId } },
      });
      const [proxied, local] = await Promise.all([
        viaProxy("/api/stream", body).then(dataLines),
        inPageEvents(body),
      ]);
      expect(proxied.length).toBeGreaterThan(3);
      expect(proxied.at(-1)?.type).toBe("done");
      expect(local).toEqual(proxied);

      const proxiedPayload = JSON.parse(await viaProxy(`/api/calls/${callId}/payload`)) as PayloadResponse;
      expect(proxiedPayload.payload.kept).toBe("all");
      expect(JSON.parse(await inPage.payload(callId))).toEqual(proxiedPayload);
      // The payload is what the mirror answered from: pi-ai's transform of what was sent.
      const model = registry.resolve("mirror", id);
      if (!model) throw new Error(`no mirror model ${id}`);
      const transformed = transformMessages(messages as Message[], model);
      expect(proxiedPayload.payload.kept === "all" && proxiedPayload.payload.value).toMatchObject({
        model: id,
        messages: transformed,
      });
      const text = proxied.map((event) => (event.type === "text_delta" ? event.delta : "")).join("");
      expect(text).toContain(`I received ${countOf(transformed.length, "message")}: `);

      const preview = JSON.stringify({ model: { provider: "mirror", id }, context: { messages }, options });
      expect(JSON.parse(await viaProxy("/api/preview", preview))).toEqual(
        JSON.parse(await inPage.preview(preview)),
      );
      expect(JSON.parse(await inPage.preview(preview))).toEqual(proxiedPayload);
    },
  );

  it("are listed the same", async () => {
    const listed = JSON.parse(await viaProxy("/api/models")) as { models: { provider: string }[] };
    const { models } = await inPage.listModels();
    expect(models).toEqual(listed.models.filter((model) => model.provider === "mirror"));
  });

  it("take the chosen speed from the request through the proxy", async () => {
    // The pace is the mirror's timer: with the clock faked, a second of it passes only when the test says
    // so, and the reply's chunks that arrived by then are the pace. The sockets run on real time.
    const tokensInOneSecond = async (speed: number) => {
      const body = JSON.stringify({
        model: { provider: "mirror", id: "mirror" },
        context: { messages: [system, user("a reply of some length ".repeat(120))] },
        options: { metadata: { mirrorTokensPerSecond: speed } },
      });
      const controller = new AbortController();
      let received = "";
      const reply = viaProxy("/api/stream", body, "POST", controller.signal, (chunk) => (received += chunk));
      const deltas = () => dataLines(received).filter((event) => event.type === "text_delta").length;
      // Let the request reach the handler and the stream start before the clock moves.
      await until(() => dataLines(received).some((event) => event.type === "text_start"));
      for (let step = 0; step < 100; step++) {
        await vi.advanceTimersByTimeAsync(10);
        await realTurns(3);
      }
      await realTurns(20);
      const counted = deltas();
      controller.abort();
      await reply.catch(() => undefined);
      return counted;
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      // One token (up to four characters) per chunk: the count is the pace, a little over it where a word
      // ends in a shorter chunk. Neither is the default pace (75 tokens per second).
      const slow = await tokensInOneSecond(15);
      const fast = await tokensInOneSecond(300);
      expect(slow).toBeGreaterThanOrEqual(13);
      expect(slow).toBeLessThanOrEqual(20);
      expect(fast).toBeGreaterThanOrEqual(270);
      expect(fast).toBeLessThanOrEqual(360);
    } finally {
      vi.useRealTimers();
    }
  });
});
