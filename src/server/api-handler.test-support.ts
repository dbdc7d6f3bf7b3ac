import { request as httpRequest, createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startFixtureServer, type Fixture } from "../../e2e/fixtures/openai-fixture-server.mjs";
import { createApiHandler, type ApiOptions } from "./api-handler.ts";
import { createModelRegistry, type ModelRegistry } from "./model-registry.ts";
import { LOOPBACK_HOSTNAMES } from "./request-guard.ts";

/**
 * The proxy against real peers on loopback: an HTTP server hosting the handler, and an OpenAI-compatible
 * fixture standing in for a local model server. No internet is needed or used.
 */

export const TOKEN = "test-token-0123456789";

export const auth = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" };

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  onData?: (text: string) => void;
}

export interface Listening {
  server: Server;
  port: number;
}

/** The handler on its own HTTP server, on a free loopback port. */
export function listenOnLoopback(options: ApiOptions): Promise<Listening> {
  const handler = createApiHandler(options);
  const instance = createServer((req, res) => handler(req, res));
  return new Promise((resolve) =>
    instance.listen(0, "127.0.0.1", () =>
      resolve({ server: instance, port: (instance.address() as AddressInfo).port }),
    ),
  );
}

/** A raw HTTP request, so Host and Origin can be set freely (fetch forbids a custom Host). */
export function sendRequest(
  port: number,
  path: string,
  { method = "GET", headers = {}, body, signal, onData }: RawRequest = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers, signal }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        onData?.(text);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export function streamBody(
  provider: string,
  id: string,
  messages: unknown[] = [{ role: "user", content: "hello", timestamp: 1 }],
  model: Record<string, unknown> = {},
): string {
  return JSON.stringify({ model: { provider, id, ...model }, context: { messages }, options: {} });
}

export function events(body: string): { type: string; [key: string]: unknown }[] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { type: string });
}

export async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The peers a test file's proxy talks to, and the proxy itself, all started once for the file. */
export interface LoopbackProxy {
  /** The local model server the registry lists. */
  readonly fixture: Fixture;
  /** A second server no request may reach: where a client's own baseUrl would send it. */
  readonly decoy: Fixture;
  readonly registry: ModelRegistry;
  /** The port of the proxy started with the defaults below. */
  readonly port: number;
  /** Another proxy, with some defaults changed; the test closes it. */
  listen(options?: Partial<ApiOptions>): Promise<Listening>;
  /** A raw request to the file's proxy, or to the proxy on `targetPort`. */
  send(path: string, request?: RawRequest, targetPort?: number): Promise<Reply>;
}

interface Peers {
  fixture: Fixture;
  decoy: Fixture;
  registry: ModelRegistry;
  listening: Listening;
}

/** The proxy's options in these tests, less the registry: small limits, and quiet. */
export const TEST_LIMITS = {
  token: TOKEN,
  hostnames: LOOPBACK_HOSTNAMES,
  maxBodyBytes: 64 * 1024,
  maxConcurrentStreams: 2,
  // Generous: a loaded machine can take a while before an upstream's first byte. The stall test lowers it.
  upstreamIdleTimeoutMs: 5_000,
  bodyIdleTimeoutMs: 2_000,
  clientReadTimeoutMs: 5_000,
  maxUnsentBytes: 4 * 1024 * 1024,
  keepAliveMs: 60_000,
  log: () => undefined,
} satisfies Omit<ApiOptions, "registry">;

/** Start the peers and the proxy before the file's tests, stop them after, and forget requests between tests. */
export function useLoopbackProxy(): LoopbackProxy {
  let peers: Peers | undefined;
  const started = (): Peers => {
    if (!peers) throw new Error("The loopback proxy starts in beforeAll: use it inside a test.");
    return peers;
  };
  const listenWith = (registry: ModelRegistry, options: Partial<ApiOptions>) =>
    listenOnLoopback({
      registry,
      ...TEST_LIMITS,
      ...options,
    });

  beforeAll(async () => {
    const fixture = await startFixtureServer(0);
    const decoy = await startFixtureServer(0);
    const registry = await createModelRegistry({
      env: {
        LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`,
        OPENAI_API_KEY: "sk-test-not-a-real-key-123",
      },
      builtins: true,
    });
    peers = { fixture, decoy, registry, listening: await listenWith(registry, {}) };
  });

  afterAll(async () => {
    const { fixture, decoy, listening } = started();
    listening.server.close();
    await fixture.close();
    await decoy.close();
  });

  afterEach(() => {
    const { fixture, decoy } = started();
    fixture.requests.length = 0;
    decoy.requests.length = 0;
  });

  return {
    get fixture() {
      return started().fixture;
    },
    get decoy() {
      return started().decoy;
    },
    get registry() {
      return started().registry;
    },
    get port() {
      return started().listening.port;
    },
    listen: (options = {}) => listenWith(started().registry, options),
    send: (path, request, targetPort = started().listening.port) => sendRequest(targetPort, path, request),
  };
}
