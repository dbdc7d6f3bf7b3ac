import { describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { createModelRegistry } from "./model-registry.ts";
import {
  auth,
  events,
  streamBody,
  useLoopbackProxy,
  waitFor,
  type Reply,
} from "./api-handler.test-support.ts";

/**
 * `POST /api/stream`: what is refused before streaming, where a model's request goes, how upstream
 * failures reach the page in-band, the stream slots, and secrets kept out of what is sent back.
 */

const loopback = useLoopbackProxy();
const { listen, send } = loopback;

describe("POST /api/stream", () => {
  it("streams data lines without partial, ending in done", async () => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("mirror", "mirror-instant"),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toMatch(/^text\/event-stream/);
    const list = events(reply.body);
    expect(list[0]?.type).toBe("start");
    expect(list.at(-1)?.type).toBe("done");
    expect(reply.body).not.toContain('"partial"');
    const text = list
      .filter((event) => event.type === "text_delta")
      .map((event) => event.delta)
      .join("");
    expect(text).toContain("I received 1 message: user.");
  });

  it.each([
    ["no token", {}, 401],
    ["a wrong token", { Authorization: "Bearer wrong" }, 401],
  ])("answers %s with 401", async (_name, headers, status) => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers,
      body: streamBody("mirror", "mirror-instant"),
    });
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.body).error).toMatch(/proxy token/);
  });

  it("answers malformed JSON, missing fields and unknown models with 400 and a JSON error", async () => {
    const malformed = await send("/api/stream", { method: "POST", headers: auth, body: "{nope" });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error).toMatch(/not valid JSON/);
    const missing = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ context: { messages: [] } }),
    });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body).error).toMatch(/model/);
    const unknown = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("nowhere", "ghost-1"),
    });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toBe(
      "Unknown model: nowhere/ghost-1 is not served by this proxy.",
    );
  });

  it("answers an oversized body with 413", async () => {
    const huge = streamBody("mirror", "mirror-instant", [
      { role: "user", content: "x".repeat(100 * 1024), timestamp: 1 },
    ]);
    const reply = await send("/api/stream", { method: "POST", headers: auth, body: huge });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error).toMatch(/larger than the proxy's limit of 64 kB/);
  });

  it("answers an oversized chunked body (no Content-Length) with 413 too", async () => {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: loopback.port,
          path: "/api/stream",
          method: "POST",
          headers: { ...auth, "Transfer-Encoding": "chunked" },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on("error", reject);
      for (let chunk = 0; chunk < 20; chunk++) req.write("x".repeat(8 * 1024));
      req.end();
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error).toMatch(/larger than the proxy's limit of 64 kB/);
  });

  it("answers the wrong method with 405", async () => {
    const reply = await send("/api/stream");
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe("POST");
  });

  it("refuses a foreign Origin even with the right token", async () => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers: { ...auth, Origin: "http://evil.example" },
      body: streamBody("mirror", "mirror-instant"),
    });
    expect(reply.status).toBe(403);
  });

  it("routes a local model to the configured server and carries the messages it was given", async () => {
    const messages = [
      { role: "system", content: "Be brief.", timestamp: 0 },
      { role: "user", content: "hello fixture", timestamp: 1 },
    ];
    const reply = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("local", "fixture-tools", messages),
    });
    expect(events(reply.body).at(-1), reply.body).toMatchObject({ type: "done" });
    expect(loopback.fixture.requests).toHaveLength(1);
    expect(loopback.fixture.requests[0]?.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "hello fixture" },
    ]);
  });

  it("ignores the client's baseUrl and headers: the server's own model record decides where to go", async () => {
    const body = streamBody("local", "fixture-tools", undefined, {
      baseUrl: `http://127.0.0.1:${loopback.decoy.port}/v1`,
      headers: { "x-steal": "1" },
    });
    await send("/api/stream", { method: "POST", headers: auth, body });
    expect(loopback.decoy.requests).toHaveLength(0);
    expect(loopback.fixture.requests).toHaveLength(1);
    expect(loopback.fixture.requests[0]?.headers["x-steal"]).toBeUndefined();
  });

  it("reports a provider 401 in-band with the status first", async () => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("local", "fixture-401"),
    });
    const last = events(reply.body).at(-1);
    expect(last).toMatchObject({ type: "error", reason: "error" });
    expect(String(last?.errorMessage)).toMatch(/^Provider returned 401: .*Incorrect API key/);
  });

  it("reports a stream that breaks mid-way in-band", async () => {
    const reply = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("local", "fixture-break"),
    });
    const last = events(reply.body).at(-1);
    expect(last?.type).toBe("error");
    expect(String(last?.errorMessage).length).toBeGreaterThan(0);
  });

  it("gives up on an upstream that stalls, and says so", async () => {
    const quick = await listen({ upstreamIdleTimeoutMs: 400 });
    try {
      const reply = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: streamBody("local", "fixture-stall") },
        quick.port,
      );
      const last = events(reply.body).at(-1);
      expect(last).toMatchObject({ type: "error", reason: "error" });
      expect(String(last?.errorMessage)).toMatch(/sent nothing for 400 ms/);
    } finally {
      quick.server.close();
    }
  });

  it("names the missing key for a provider without credentials", async () => {
    const model = loopback.registry.models.getModels("anthropic")[0];
    expect(model).toBeDefined();
    const reply = await send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("anthropic", model?.id ?? ""),
    });
    const last = events(reply.body).at(-1);
    expect(last).toMatchObject({ type: "error" });
    expect(String(last?.errorMessage)).toMatch(/^ANTHROPIC_API_KEY is not set/);
  });

  it("aborts the upstream request when the client disconnects, and frees the slot", async () => {
    const before = loopback.fixture.events.closedEarly;
    const controller = new AbortController();
    const pending = send("/api/stream", {
      method: "POST",
      headers: auth,
      body: streamBody("local", "fixture-stall"),
      signal: controller.signal,
      onData: (text) => {
        if (text.includes('"start"')) controller.abort();
      },
    }).catch((error: Error) => error);
    await pending;
    await waitFor(() => loopback.fixture.events.closedEarly === before + 1);
    // Both slots are free again: two streams run side by side.
    const [first, second] = await Promise.all([
      send("/api/stream", { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") }),
      send("/api/stream", { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
  });

  it("answers 429 beyond the concurrent stream limit", async () => {
    const long = streamBody("mirror", "mirror", [{ role: "user", content: "y".repeat(400), timestamp: 1 }]);
    const controllers = [new AbortController(), new AbortController()];
    const open = controllers.map((controller) =>
      send("/api/stream", { method: "POST", headers: auth, body: long, signal: controller.signal }).catch(
        () => undefined,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const third = await send("/api/stream", { method: "POST", headers: auth, body: long });
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body).error).toMatch(
      /Too many streams at once: this proxy serves 2 concurrently/,
    );
    for (const controller of controllers) controller.abort();
    await Promise.all(open);
  });
});

describe("what the proxy sends back", () => {
  async function streamedText(env: Record<string, string>, model: string) {
    const keyed = await createModelRegistry({ env, builtins: false });
    const proxy = await listen({ registry: keyed });
    try {
      const reply = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: streamBody("local", model) },
        proxy.port,
      );
      const list = events(reply.body);
      const text = list
        .filter((event) => event.type === "text_delta")
        .map((event) => String(event.delta))
        .join("");
      return { raw: reply.body, text, last: list.at(-1) };
    } finally {
      proxy.server.close();
    }
  }

  it("scrubs a configured key echoed in the reply text, even a three-character one split across deltas", async () => {
    const reply = await streamedText(
      { LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${loopback.fixture.port}/v1`, LOCAL_OPENAI_API_KEY: "k3y" },
      "fixture-echo-auth",
    );
    expect(reply.text).toBe("You sent: Authorization: Bearer [redacted]");
    expect(reply.raw).not.toContain("k3y");
    expect(reply.last?.type).toBe("done");
  });

  it("scrubs a long key that arrives two characters at a time", async () => {
    const key = "sk-local-0123456789abcdefghij";
    const reply = await streamedText(
      { LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${loopback.fixture.port}/v1`, LOCAL_OPENAI_API_KEY: key },
      "fixture-echo-auth",
    );
    expect(reply.text).toBe("You sent: Authorization: Bearer [redacted]");
    for (let at = 0; at + 6 <= key.length; at += 3) expect(reply.raw).not.toContain(key.slice(at, at + 6));
  });

  it("keeps a token in the local server's URL path out of error texts", async () => {
    const reply = await streamedText(
      { LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${loopback.fixture.port}/v1/tok3nSecret/` },
      "fixture-break",
    );
    expect(reply.last?.type).toBe("error");
    expect(String(reply.last?.errorMessage)).toMatch(
      new RegExp(
        `^Could not reach local at http://127\\.0\\.0\\.1:${loopback.fixture.port}/v1/\\[redacted\\]`,
      ),
    );
    expect(reply.raw).not.toContain("tok3nSecret");
  });

  it("keeps a token in the local server's URL path out of the models warning", async () => {
    const unreachable = await createModelRegistry({
      env: { LOCAL_OPENAI_BASE_URL: "http://127.0.0.1:9/v1/tok3nSecret" },
      builtins: false,
    });
    const list = await unreachable.list();
    expect(list.warnings[0]).toMatch(
      /^The local OpenAI-compatible server at http:\/\/127\.0\.0\.1:9\/v1\/\[redacted\] /,
    );
    expect(JSON.stringify(list)).not.toContain("tok3nSecret");
  });
});
