import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { startFixtureServer, type Fixture } from "../../e2e/fixtures/openai-fixture-server.mjs";
import type { PayloadResponse } from "../shared/api-types.ts";
import type { ApiOptions } from "./api-handler.ts";
import { listenOnLoopback, sendRequest, TEST_LIMITS, type Listening } from "./api-handler.test-support.ts";
import { createModelRegistry, type ModelRegistry } from "./model-registry.ts";

/**
 * The provider payload of each call, captured on the server through pi-ai's `onPayload`, kept by call id
 * and served to the page: against a loopback OpenAI-compatible fixture, which records every body it gets.
 */

const TOKEN = "payload-token-0123456789";
export const LOCAL_KEY = "sk-local-fixture-secret-77";
export const CALL = "0b6f2c1e-5d4a-4f43-9a3e-1c2d3e4f5a6b";

export const auth = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" };

export function body(
  provider: string,
  id: string,
  messages: unknown[],
  options: Record<string, unknown> = {},
): string {
  return JSON.stringify({ model: { provider, id }, context: { messages }, options });
}

export const hello = [
  { role: "system", content: "Be brief.", timestamp: 0 },
  { role: "user", content: "hello fixture", timestamp: 1 },
];

/** Stream one call to its end, naming it `callId` as the page does; returns the text it streamed. */
export async function call(
  port: number,
  callId: string,
  model: string,
  messages: unknown[] = hello,
): Promise<string> {
  const reply = await sendRequest(port, "/api/stream", {
    method: "POST",
    headers: auth,
    body: body("local", model, messages, { metadata: { callId } }),
  });
  expect(reply.status).toBe(200);
  return reply.body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string })
    .map((event) => (event.type === "text_delta" ? (event.delta ?? "") : ""))
    .join("");
}

export async function payloadOf(port: number, callId: string): Promise<PayloadResponse> {
  const reply = await sendRequest(port, `/api/calls/${callId}/payload`, { headers: auth });
  expect(reply.status, reply.body).toBe(200);
  return JSON.parse(reply.body) as PayloadResponse;
}

/** The local model server a test file's proxies talk to, and the registry that lists it. */
export interface PayloadLoopback {
  /** Records every body it receives: what the provider got, to compare the kept payload with. */
  readonly fixture: Fixture;
  readonly registry: ModelRegistry;
  /** A proxy on loopback with the given payload limits (and a clock a test can move); the test closes it. */
  proxy(options?: Partial<ApiOptions>): Promise<Listening>;
}

/** Start the fixture and the registry before the file's tests, stop them after, and forget requests between tests. */
export function usePayloadLoopback(): PayloadLoopback {
  let peers: { fixture: Fixture; registry: ModelRegistry } | undefined;
  const started = () => {
    if (!peers) throw new Error("The payload fixture starts in beforeAll: use it inside a test.");
    return peers;
  };

  beforeAll(async () => {
    const fixture = await startFixtureServer(0);
    const registry = await createModelRegistry({
      env: {
        LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`,
        LOCAL_OPENAI_API_KEY: LOCAL_KEY,
      },
      builtins: true,
    });
    peers = { fixture, registry };
  });

  afterAll(() => started().fixture.close());

  afterEach(() => {
    started().fixture.requests.length = 0;
  });

  return {
    get fixture() {
      return started().fixture;
    },
    get registry() {
      return started().registry;
    },
    proxy: (options = {}) =>
      listenOnLoopback({
        ...TEST_LIMITS,
        registry: started().registry,
        token: TOKEN,
        maxBodyBytes: 1024 * 1024,
        maxConcurrentStreams: 4,
        bodyIdleTimeoutMs: 5_000,
        ...options,
      }),
  };
}
