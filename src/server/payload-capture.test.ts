import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type Fixture } from "../../e2e/fixtures/openai-fixture-server.mjs";
import type { PayloadResponse } from "../shared/api-types.ts";
import { previewPayload } from "../shared/payloads/preview.ts";
import { createApiHandler, type ApiOptions } from "./api-handler.ts";
import { createModelRegistry, type ModelRegistry } from "./model-registry.ts";
import { LOOPBACK_HOSTNAMES } from "./request-guard.ts";
import { stoppedMirrorReply } from "../shared/mirror/mirror.test-support.ts";

/**
 * The provider payload of each call, captured on the server through pi-ai's `onPayload`, kept by call id
 * and served to the page: against a loopback OpenAI-compatible fixture, which records every body it gets.
 */

const TOKEN = "payload-token-0123456789";
const LOCAL_KEY = "sk-local-fixture-secret-77";
const CALL = "0b6f2c1e-5d4a-4f43-9a3e-1c2d3e4f5a6b";

let fixture: Fixture;
let registry: ModelRegistry;

interface Reply {
  status: number;
  body: string;
}

/** A proxy on loopback with the given payload limits (and a clock a test can move). */
async function proxy(options: Partial<ApiOptions> = {}): Promise<{ port: number; server: Server }> {
  const handler = createApiHandler({
    registry,
    token: TOKEN,
    hostnames: LOOPBACK_HOSTNAMES,
    maxBodyBytes: 1024 * 1024,
    maxConcurrentStreams: 4,
    upstreamIdleTimeoutMs: 5_000,
    bodyIdleTimeoutMs: 5_000,
    clientReadTimeoutMs: 5_000,
    maxUnsentBytes: 4 * 1024 * 1024,
    keepAliveMs: 60_000,
    log: () => undefined,
    ...options,
  });
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

function send(
  port: number,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const auth = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" };

function body(
  provider: string,
  id: string,
  messages: unknown[],
  options: Record<string, unknown> = {},
): string {
  return JSON.stringify({ model: { provider, id }, context: { messages }, options });
}

const hello = [
  { role: "system", content: "Be brief.", timestamp: 0 },
  { role: "user", content: "hello fixture", timestamp: 1 },
];

/** Stream one call to its end, naming it `callId` as the page does; returns the text it streamed. */
async function call(
  port: number,
  callId: string,
  model: string,
  messages: unknown[] = hello,
): Promise<string> {
  const reply = await send(port, "/api/stream", {
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

async function payloadOf(port: number, callId: string): Promise<PayloadResponse> {
  const reply = await send(port, `/api/calls/${callId}/payload`, { headers: auth });
  expect(reply.status, reply.body).toBe(200);
  return JSON.parse(reply.body) as PayloadResponse;
}

beforeAll(async () => {
  fixture = await startFixtureServer(0);
  registry = await createModelRegistry({
    env: {
      LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`,
      LOCAL_OPENAI_API_KEY: LOCAL_KEY,
    },
    builtins: true,
  });
});

afterAll(() => fixture.close());

afterEach(() => {
  fixture.requests.length = 0;
});

describe("the payload of a call", () => {
  let port: number;
  let server: Server;
  beforeAll(async () => ({ port, server } = await proxy()));
  afterAll(() => server.close());

  it("is exactly the body the provider received, with where the provider takes it", async () => {
    await call(port, CALL, "fixture-tools");
    expect(fixture.requests).toHaveLength(1);
    const { payload, endpoint } = await payloadOf(port, CALL);
    expect(payload.kept).toBe("all");
    expect(payload.kept === "all" && payload.value).toEqual(fixture.requests[0]?.body);
    expect(payload.bytes).toBe(Buffer.byteLength(JSON.stringify(fixture.requests[0]?.body)));
    expect(endpoint).toEqual({
      url: `http://127.0.0.1:${fixture.port}/v1/chat/completions`,
      headers: { Authorization: "Bearer $LOCAL_OPENAI_API_KEY" },
    });
  });

  it("never carries the call id, nor any other metadata, to the provider", async () => {
    await send(port, "/api/stream", {
      method: "POST",
      headers: auth,
      body: body("local", "fixture-tools", hello, { metadata: { callId: CALL, user_id: "someone-42" } }),
    });
    const [received] = fixture.requests;
    expect(received?.body).not.toHaveProperty("metadata");
    expect(JSON.stringify(received)).not.toContain(CALL);
    expect(JSON.stringify(received)).not.toContain("someone-42");
  });

  it("never hands the metadata to an adapter that would forward it (Anthropic sends metadata.user_id)", async () => {
    const keyed = await createModelRegistry({
      env: { ANTHROPIC_API_KEY: "sk-ant-fake-key-for-preview" },
      builtins: true,
    });
    const model = keyed.models.getModels("anthropic")[0];
    if (!model) throw new Error("pi-ai lists no anthropic model");
    // The control: given metadata, pi-ai's Anthropic adapter puts it in the body it builds.
    const direct = await previewPayload(
      (target, context, options) => keyed.models.streamSimple(target, context, options),
      model,
      [{ role: "user", content: "hello", timestamp: 1 }],
      { metadata: { user_id: "someone-42" } },
    );
    expect(direct.built && direct.payload).toMatchObject({ metadata: { user_id: "someone-42" } });

    const own = await proxy({ registry: keyed });
    try {
      const reply = await send(own.port, "/api/preview", {
        method: "POST",
        headers: auth,
        body: body("anthropic", model.id, hello, { metadata: { callId: CALL, user_id: "someone-42" } }),
      });
      const { payload } = JSON.parse(reply.body) as PayloadResponse;
      expect(payload.kept).toBe("all");
      expect(payload.kept === "all" && payload.value).not.toHaveProperty("metadata");
      expect(reply.body).not.toContain("someone-42");
      expect(reply.body).not.toContain("sk-ant-fake-key-for-preview");
    } finally {
      own.server.close();
    }
  });

  it("keeps the payload of a call the provider refused (it was built and sent)", async () => {
    const id = "refused-call-0001";
    await call(port, id, "fixture-401");
    const { payload } = await payloadOf(port, id);
    expect(payload.kept === "all" && payload.value).toEqual(fixture.requests[0]?.body);
  });

  it("says why there is none when no request was built", async () => {
    const id = "no-credentials-01";
    const model = registry.models.getModels("anthropic")[0];
    await send(port, "/api/stream", {
      method: "POST",
      headers: auth,
      body: body("anthropic", model?.id ?? "", hello, { metadata: { callId: id } }),
    });
    const { payload, endpoint } = await payloadOf(port, id);
    expect(payload).toEqual({
      kept: "none",
      bytes: 0,
      reason: expect.stringMatching(/^no request was built: ANTHROPIC_API_KEY is not set on the server/),
    });
    expect(endpoint).toEqual({
      url: "https://api.anthropic.com/v1/messages",
      headers: { "x-api-key": "$ANTHROPIC_API_KEY", "anthropic-version": "2023-06-01" },
    });
  });

  it("is the offline model's transformed messages, without an endpoint", async () => {
    const id = "mirror-call-00001";
    await send(port, "/api/stream", {
      method: "POST",
      headers: auth,
      body: body("mirror", "mirror-instant", hello, { metadata: { callId: id }, temperature: 0.5 }),
    });
    const response = await payloadOf(port, id);
    expect(response).toEqual({
      payload: {
        kept: "all",
        bytes: expect.any(Number),
        value: { model: "mirror-instant", messages: hello, options: { temperature: 0.5 } },
      },
    });
  });

  it("is refused without the token, from another origin or host, and by method", async () => {
    const path = `/api/calls/${CALL}/payload`;
    await call(port, CALL, "fixture-tools");
    const missing = await send(port, path);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error).toMatch(/Missing proxy token/);
    expect((await send(port, path, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    const foreign = await send(port, path, { headers: { ...auth, Origin: "http://evil.example" } });
    expect(foreign.status).toBe(403);
    const rebound = await send(port, path, { headers: { ...auth, Host: `attacker.example:${port}` } });
    expect(rebound.status).toBe(403);
    const posted = await send(port, path, { method: "POST", headers: auth });
    expect(posted.status).toBe(405);
    expect(JSON.parse(posted.body).error).toBe(`${path} accepts GET only.`);
  });

  it("answers an unknown call with 404 and a malformed id with 400, each saying why", async () => {
    const unknown = await send(port, "/api/calls/never-seen-call-id/payload", { headers: auth });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error).toBe(
      "No payload is kept for call never-seen-call-id: this proxy did not serve that call, or it was dropped (payloads are kept 10 min, PAYLOAD_TTL_MS, and the oldest go first past MAX_PAYLOAD_STORE_BYTES).",
    );
    const malformed = await send(port, "/api/calls/a%20b/payload", { headers: auth });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error).toMatch(/call id in the address must be 8 to 128 letters/);
  });

  it("refuses a stream whose call id is malformed, before calling anyone", async () => {
    const reply = await send(port, "/api/stream", {
      method: "POST",
      headers: auth,
      body: body("local", "fixture-tools", hello, { metadata: { callId: "../../x" } }),
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error).toMatch(/options\.metadata\.callId/);
    expect(fixture.requests).toHaveLength(0);
  });
});

describe("secrets in a payload", () => {
  it("are scrubbed before it is kept, even when an upstream echoed the key into the conversation", async () => {
    const { port, server } = await proxy();
    try {
      // The upstream echoes the Authorization header it received; the reply goes back in the next request.
      const echoed = await call(port, "echo-turn-0000001", "fixture-echo-auth");
      expect(echoed).toContain("You sent: Authorization: Bearer");
      const next = [
        ...hello,
        {
          role: "user",
          content: `${echoed}\nand my proxy is https://me:hunter2-password@proxy.example/v1`,
          timestamp: 2,
        },
      ];
      await call(port, "echo-turn-0000002", "fixture-tools", next);
      const sent = JSON.stringify(fixture.requests.at(-1)?.body);
      // What the provider got is the conversation as it is; what is kept for the page is not.
      expect(sent).toContain("hunter2-password");
      const { payload } = await payloadOf(port, "echo-turn-0000002");
      const kept = JSON.stringify(payload);
      expect(kept).not.toContain(LOCAL_KEY);
      expect(kept).not.toContain("hunter2-password");
      expect(kept).toContain("https://[redacted]@proxy.example/v1");
      expect(payload.kept).toBe("all");
    } finally {
      server.close();
    }
  });
});

describe("the limits on kept payloads", () => {
  it("keeps the first bytes of a payload over MAX_PAYLOAD_CAPTURE_BYTES as text, with its full size", async () => {
    const { port, server } = await proxy({ maxPayloadCaptureBytes: 300 });
    try {
      const long = [...hello, { role: "user", content: "é".repeat(400), timestamp: 2 }];
      await call(port, "long-call-000001", "fixture-tools", long);
      const full = JSON.stringify(fixture.requests[0]?.body);
      const { payload } = await payloadOf(port, "long-call-000001");
      expect(payload).toEqual({
        kept: "truncated",
        text: full.slice(0, payload.kept === "truncated" ? payload.text.length : 0),
        bytes: Buffer.byteLength(full),
      });
      expect(payload.kept === "truncated" && Buffer.byteLength(payload.text)).toBeLessThanOrEqual(300);
      expect(payload.kept === "truncated" && payload.text.length).toBeGreaterThan(100);
    } finally {
      server.close();
    }
  });

  it("drops the oldest payloads past MAX_PAYLOAD_STORE_BYTES", async () => {
    const size = (await sizeOfOneCall()) + 300;
    const { port, server } = await proxy({ maxPayloadStoreBytes: size * 2 + 100 });
    try {
      for (const id of ["oldest-call-0001", "middle-call-0001", "newest-call-0001"]) {
        await call(port, id, "fixture-tools");
      }
      expect((await send(port, "/api/calls/oldest-call-0001/payload", { headers: auth })).status).toBe(404);
      expect((await payloadOf(port, "middle-call-0001")).payload.kept).toBe("all");
      expect((await payloadOf(port, "newest-call-0001")).payload.kept).toBe("all");
    } finally {
      server.close();
    }
  });

  it("drops payloads older than PAYLOAD_TTL_MS", async () => {
    let now = 1_000_000;
    const { port, server } = await proxy({ payloadTtlMs: 60_000, now: () => now });
    try {
      await call(port, "aging-call-00001", "fixture-tools");
      now += 59_000;
      expect((await payloadOf(port, "aging-call-00001")).payload.kept).toBe("all");
      now += 1_000;
      const gone = await send(port, "/api/calls/aging-call-00001/payload", { headers: auth });
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.body).error).toMatch(/kept 1 min, PAYLOAD_TTL_MS/);
    } finally {
      server.close();
    }
  });

  it("keeps none when MAX_PAYLOAD_STORE_BYTES is 0, and says so", async () => {
    const { port, server } = await proxy({ maxPayloadStoreBytes: 0 });
    try {
      await call(port, "off-call-0000001", "fixture-tools");
      expect((await payloadOf(port, "off-call-0000001")).payload).toEqual({
        kept: "none",
        bytes: 0,
        reason: "this proxy keeps no provider payloads (it was started with MAX_PAYLOAD_STORE_BYTES=0)",
      });
    } finally {
      server.close();
    }
  });
});

/** The bytes one plain call's payload takes, measured on a proxy of its own. */
async function sizeOfOneCall(): Promise<number> {
  const { port, server } = await proxy();
  try {
    await call(port, "measure-call-001", "fixture-tools");
    fixture.requests.length = 0;
    return (await payloadOf(port, "measure-call-001")).payload.bytes;
  } finally {
    server.close();
  }
}

describe("POST /api/preview", () => {
  let port: number;
  let server: Server;
  beforeAll(async () => ({ port, server } = await proxy()));
  afterAll(() => server.close());

  it("builds the payload with the real adapter and sends nothing: the next call sends that very body", async () => {
    const preview = await send(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("local", "fixture-tools", hello),
    });
    expect(preview.status).toBe(200);
    const { payload, endpoint } = JSON.parse(preview.body) as PayloadResponse;
    expect(payload.kept).toBe("all");
    expect(endpoint?.url).toBe(`http://127.0.0.1:${fixture.port}/v1/chat/completions`);
    expect(fixture.requests).toHaveLength(0);
    expect(fixture.events.open).toBe(0);

    // The call itself, made after the preview: the fixture sees one request, the one previewed.
    await call(port, "after-preview-001", "fixture-tools");
    expect(fixture.requests).toHaveLength(1);
    expect(payload.kept === "all" && payload.value).toEqual(fixture.requests[0]?.body);
  });

  it("previews the offline models too, with the provider transform applied", async () => {
    const stopped = stoppedMirrorReply("I rec", 2);
    const reply = await send(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("mirror", "mirror-instant", [...hello, stopped]),
    });
    expect(JSON.parse(reply.body)).toEqual({
      payload: {
        kept: "all",
        bytes: expect.any(Number),
        value: { model: "mirror-instant", messages: hello, options: {} },
      },
    });
  });

  it("says why no payload can be built for a provider without credentials", async () => {
    const model = registry.models.getModels("anthropic")[0];
    const reply = await send(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("anthropic", model?.id ?? "", hello),
    });
    const { payload } = JSON.parse(reply.body) as PayloadResponse;
    expect(payload).toMatchObject({
      kept: "none",
      reason: expect.stringMatching(/ANTHROPIC_API_KEY is not set/),
    });
  });

  it("has the stream's guards: token, known model, valid body", async () => {
    const noToken = await send(port, "/api/preview", {
      method: "POST",
      body: body("local", "fixture-tools", hello),
    });
    expect(noToken.status).toBe(401);
    const unknown = await send(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("nowhere", "x", hello),
    });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toBe("Unknown model: nowhere/x is not served by this proxy.");
    expect((await send(port, "/api/preview", { headers: auth })).status).toBe(405);
    expect(fixture.requests).toHaveLength(0);
  });
});
