import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayloadResponse } from "../shared/api-types.ts";
import { previewPayload } from "../shared/payloads/preview.ts";
import { sendRequest } from "./api-handler.test-support.ts";
import { createModelRegistry } from "./model-registry.ts";
import {
  auth,
  body,
  call,
  CALL,
  hello,
  LOCAL_KEY,
  payloadOf,
  usePayloadLoopback,
} from "./payload-capture.test-support.ts";

/**
 * The payload of a call as the page asks for it (`GET /api/calls/:callId/payload`): the very body the
 * provider received, scrubbed of secrets before it is kept, and refused to anyone without the token.
 */

const loopback = usePayloadLoopback();
const { proxy } = loopback;

describe("the payload of a call", () => {
  let port: number;
  let server: Server;
  beforeAll(async () => ({ port, server } = await proxy()));
  afterAll(() => server.close());

  it("is exactly the body the provider received, with where the provider takes it", async () => {
    await call(port, CALL, "fixture-tools");
    expect(loopback.fixture.requests).toHaveLength(1);
    const { payload, endpoint } = await payloadOf(port, CALL);
    expect(payload.kept).toBe("all");
    expect(payload.kept === "all" && payload.value).toEqual(loopback.fixture.requests[0]?.body);
    expect(payload.bytes).toBe(Buffer.byteLength(JSON.stringify(loopback.fixture.requests[0]?.body)));
    expect(endpoint).toEqual({
      url: `http://127.0.0.1:${loopback.fixture.port}/v1/chat/completions`,
      headers: { Authorization: "Bearer $LOCAL_OPENAI_API_KEY" },
    });
  });

  it("never carries the call id, nor any other metadata, to the provider", async () => {
    await sendRequest(port, "/api/stream", {
      method: "POST",
      headers: auth,
      body: body("local", "fixture-tools", hello, { metadata: { callId: CALL, user_id: "someone-42" } }),
    });
    const [received] = loopback.fixture.requests;
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
      const reply = await sendRequest(own.port, "/api/preview", {
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
    expect(payload.kept === "all" && payload.value).toEqual(loopback.fixture.requests[0]?.body);
  });

  it("says why there is none when no request was built", async () => {
    const id = "no-credentials-01";
    const model = loopback.registry.models.getModels("anthropic")[0];
    await sendRequest(port, "/api/stream", {
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
    await sendRequest(port, "/api/stream", {
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
    const missing = await sendRequest(port, path);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error).toMatch(/Missing proxy token/);
    expect((await sendRequest(port, path, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    const foreign = await sendRequest(port, path, { headers: { ...auth, Origin: "http://evil.example" } });
    expect(foreign.status).toBe(403);
    const rebound = await sendRequest(port, path, { headers: { ...auth, Host: `attacker.example:${port}` } });
    expect(rebound.status).toBe(403);
    const posted = await sendRequest(port, path, { method: "POST", headers: auth });
    expect(posted.status).toBe(405);
    expect(JSON.parse(posted.body).error).toBe(`${path} accepts GET only.`);
  });

  it("answers an unknown call with 404 and a malformed id with 400, each saying why", async () => {
    const unknown = await sendRequest(port, "/api/calls/never-seen-call-id/payload", { headers: auth });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error).toBe(
      "No payload is kept for call never-seen-call-id: this proxy did not serve that call, or it was dropped (payloads are kept 10 min, PAYLOAD_TTL_MS, and the oldest go first past MAX_PAYLOAD_STORE_BYTES).",
    );
    const malformed = await sendRequest(port, "/api/calls/a%20b/payload", { headers: auth });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error).toMatch(/call id in the address must be 8 to 128 letters/);
  });

  it("refuses a stream whose call id is malformed, before calling anyone", async () => {
    const reply = await sendRequest(port, "/api/stream", {
      method: "POST",
      headers: auth,
      body: body("local", "fixture-tools", hello, { metadata: { callId: "../../x" } }),
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error).toMatch(/options\.metadata\.callId/);
    expect(loopback.fixture.requests).toHaveLength(0);
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
      const sent = JSON.stringify(loopback.fixture.requests.at(-1)?.body);
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
