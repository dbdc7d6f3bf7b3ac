import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayloadResponse } from "../shared/api-types.ts";
import { stoppedMirrorReply } from "../shared/mirror/mirror.test-support.ts";
import { sendRequest, waitFor } from "./api-handler.test-support.ts";
import type { ModelRegistry } from "./model-registry.ts";
import { auth, body, call, hello, LOCAL_KEY, usePayloadLoopback } from "./payload-capture.test-support.ts";

/** The payload of the next call, built by the provider's real adapter before anything is sent. */

const loopback = usePayloadLoopback();
const { proxy } = loopback;

describe("/api/preview has no concurrency limit", () => {
  it("builds MAX_CONCURRENT_PREVIEWS at once and answers 429 past that, saying which limit", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let building = 0;
    const registry: ModelRegistry = {
      ...loopback.registry,
      endpoint: async (provider, id) => {
        building++;
        await held;
        return loopback.registry.endpoint(provider, id);
      },
    };
    const { port, server } = await proxy({ registry, maxConcurrentPreviews: 2 });
    try {
      const ask = () =>
        sendRequest(port, "/api/preview", {
          method: "POST",
          headers: auth,
          body: body("mirror", "mirror-instant", hello),
        });
      const first = [ask(), ask()];
      await waitFor(() => building === 2);
      const third = await ask();
      expect(third.status).toBe(429);
      expect(third.headers["retry-after"]).toBe("1");
      expect(JSON.parse(third.body).error).toMatch(/builds 2 concurrently \(MAX_CONCURRENT_PREVIEWS\)/);
      release();
      expect((await Promise.all(first)).map((reply) => reply.status)).toEqual([200, 200]);
      expect((await ask()).status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe("POST /api/preview", () => {
  let port: number;
  let server: Server;
  beforeAll(async () => ({ port, server } = await proxy()));
  afterAll(() => server.close());

  it("builds the payload with the real adapter and sends nothing: the next call sends that very body", async () => {
    const preview = await sendRequest(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("local", "fixture-tools", hello),
    });
    expect(preview.status).toBe(200);
    const { payload, endpoint } = JSON.parse(preview.body) as PayloadResponse;
    expect(payload.kept).toBe("all");
    expect(endpoint?.url).toBe(`http://127.0.0.1:${loopback.fixture.port}/v1/chat/completions`);
    expect(loopback.fixture.requests).toHaveLength(0);
    expect(loopback.fixture.events.open).toBe(0);

    // The call itself, made after the preview: the fixture sees one request, the one previewed.
    await call(port, "after-preview-001", "fixture-tools");
    expect(loopback.fixture.requests).toHaveLength(1);
    expect(payload.kept === "all" && payload.value).toEqual(loopback.fixture.requests[0]?.body);
  });

  it("scrubs a key the page wrote as an object's key (payload scrubbing misses object keys)", async () => {
    const asked = {
      ...stoppedMirrorReply("", 2),
      content: [{ type: "toolCall", id: "call-1", name: "echo", arguments: { [LOCAL_KEY]: "v" } }],
      stopReason: "toolUse",
    };
    const answered = {
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "echo",
      content: [{ type: "text", text: "ok" }],
      isError: false,
      timestamp: 3,
    };
    const reply = await sendRequest(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("mirror", "mirror-instant", [...hello, asked, answered]),
    });
    expect(reply.status, reply.body).toBe(200);
    expect(reply.body).not.toContain(LOCAL_KEY);
    expect(reply.body).toContain('"arguments":{"[redacted]":"v"}');
  });

  it("previews the offline models too, with the provider transform applied", async () => {
    const stopped = stoppedMirrorReply("I rec", 2);
    const reply = await sendRequest(port, "/api/preview", {
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
    const model = loopback.registry.models.getModels("anthropic")[0];
    const reply = await sendRequest(port, "/api/preview", {
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
    const noToken = await sendRequest(port, "/api/preview", {
      method: "POST",
      body: body("local", "fixture-tools", hello),
    });
    expect(noToken.status).toBe(401);
    const unknown = await sendRequest(port, "/api/preview", {
      method: "POST",
      headers: auth,
      body: body("nowhere", "x", hello),
    });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toBe("Unknown model: nowhere/x is not served by this proxy.");
    expect((await sendRequest(port, "/api/preview", { headers: auth })).status).toBe(405);
    expect(loopback.fixture.requests).toHaveLength(0);
  });
});
