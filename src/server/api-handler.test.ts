import { request as httpRequest, createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type Fixture } from "../../e2e/fixtures/openai-fixture-server.mjs";
import { createApiHandler, type ApiOptions } from "./api-handler.ts";
import { createModelRegistry, type ModelRegistry } from "./model-registry.ts";
import { LOOPBACK_HOSTNAMES } from "./request-guard.ts";

/**
 * The proxy against real peers on loopback: an HTTP server hosting the handler, and an OpenAI-compatible
 * fixture standing in for a local model server. No internet is needed or used.
 */

const TOKEN = "test-token-0123456789";

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let fixture: Fixture;
let decoy: Fixture;
let registry: ModelRegistry;
let server: Server;
let port: number;

function listen(options: Partial<ApiOptions> = {}): Promise<{ server: Server; port: number }> {
  const handler = createApiHandler({
    registry,
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
    ...options,
  });
  const instance = createServer((req, res) => handler(req, res));
  return new Promise((resolve) =>
    instance.listen(0, "127.0.0.1", () =>
      resolve({ server: instance, port: (instance.address() as AddressInfo).port }),
    ),
  );
}

/** A raw HTTP request, so Host and Origin can be set freely (fetch forbids a custom Host). */
function send(
  path: string,
  {
    method = "GET",
    headers = {},
    body,
    signal,
    onData,
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
    onData?: (text: string) => void;
  } = {},
  targetPort = port,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: targetPort, path, method, headers, signal }, (res) => {
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

function streamBody(
  provider: string,
  id: string,
  messages: unknown[] = [{ role: "user", content: "hello", timestamp: 1 }],
  model: Record<string, unknown> = {},
): string {
  return JSON.stringify({ model: { provider, id, ...model }, context: { messages }, options: {} });
}

const auth = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" };

function events(body: string): { type: string; [key: string]: unknown }[] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { type: string });
}

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  fixture = await startFixtureServer(0);
  decoy = await startFixtureServer(0);
  registry = await createModelRegistry({
    env: {
      LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`,
      OPENAI_API_KEY: "sk-test-not-a-real-key-123",
    },
    builtins: true,
  });
  ({ server, port } = await listen());
});

afterAll(async () => {
  server.close();
  await fixture.close();
  await decoy.close();
});

afterEach(() => {
  fixture.requests.length = 0;
  decoy.requests.length = 0;
});

describe("GET /api/session and /api/models", () => {
  it("gives the page its token", async () => {
    const reply = await send("/api/session");
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ token: TOKEN });
  });

  it("refuses a foreign Origin with 403", async () => {
    const reply = await send("/api/session", { headers: { Origin: "http://evil.example" } });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toMatch(/origin "http:\/\/evil\.example"/);
  });

  it("refuses a Host that is not this server (DNS rebinding) with 403", async () => {
    const reply = await send("/api/models", { headers: { Host: `attacker.example:${port}` } });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error).toMatch(/Host/);
  });

  it("accepts its own origin", async () => {
    const reply = await send("/api/models", {
      headers: { Origin: `http://127.0.0.1:${port}`, "Sec-Fetch-Site": "same-origin" },
    });
    expect(reply.status).toBe(200);
  });

  it("accepts a reverse proxy's name on any port, and still checks the port of its own names", async () => {
    const proxied = await listen({ proxiedHostnames: ["play.example"] });
    try {
      const through = (headers: Record<string, string>) =>
        send("/api/models", { headers }, proxied.port).then((reply) => reply.status);
      expect(await through({ Host: "play.example", Origin: "https://play.example" })).toBe(200);
      expect(await through({ Host: "play.example:8443", Origin: "https://play.example:8443" })).toBe(200);
      expect(await through({ Host: "play.example", Origin: "https://evil.example" })).toBe(403);
      expect(await through({ Host: "attacker.example" })).toBe(403);
      expect(await through({ Host: `127.0.0.1:${proxied.port}`, Origin: "http://127.0.0.1:3000" })).toBe(403);
    } finally {
      proxied.server.close();
    }
  });

  it("refuses browsers' cross-site requests even without an Origin", async () => {
    expect((await send("/api/models", { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
  });

  it("lists the offline models, the local server's models, and providers with keys, without the keys", async () => {
    const reply = await send("/api/models");
    const body = JSON.parse(reply.body) as { models: { provider: string; id: string }[]; warnings: string[] };
    const providers = new Set(body.models.map((model) => model.provider));
    expect(
      body.models
        .filter((model) => model.provider === "mirror")
        .map((model) => model.id)
        .sort(),
    ).toEqual(["mirror", "mirror-instant", "mirror-thinking"]);
    expect(body.models.filter((model) => model.provider === "local").map((model) => model.id)).toContain(
      "fixture-tools",
    );
    expect(providers.has("openai")).toBe(true);
    expect(providers.has("anthropic")).toBe(false);
    expect(reply.body).not.toContain("sk-test-not-a-real-key-123");
    expect(body.warnings).toEqual([]);
  });
});

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
          port,
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
    expect(fixture.requests).toHaveLength(1);
    expect(fixture.requests[0]?.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "hello fixture" },
    ]);
  });

  it("ignores the client's baseUrl and headers: the server's own model record decides where to go", async () => {
    const body = streamBody("local", "fixture-tools", undefined, {
      baseUrl: `http://127.0.0.1:${decoy.port}/v1`,
      headers: { "x-steal": "1" },
    });
    await send("/api/stream", { method: "POST", headers: auth, body });
    expect(decoy.requests).toHaveLength(0);
    expect(fixture.requests).toHaveLength(1);
    expect(fixture.requests[0]?.headers["x-steal"]).toBeUndefined();
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
    const model = registry.models.getModels("anthropic")[0];
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
    const before = fixture.events.closedEarly;
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
    await waitFor(() => fixture.events.closedEarly === before + 1);
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

describe("the model registry", () => {
  it("lists no keyed providers without keys, and every keyed provider with a fake key, never echoing it", async () => {
    const bare = await createModelRegistry({ env: {}, builtins: true });
    const bareList = await bare.list();
    expect(new Set(bareList.models.map((model) => model.provider))).toEqual(new Set(["mirror"]));

    const keyed = await createModelRegistry({
      env: { ANTHROPIC_API_KEY: "sk-ant-fake-key-987" },
      builtins: true,
    });
    const keyedList = await keyed.list();
    expect(keyedList.models.some((model) => model.provider === "anthropic")).toBe(true);
    expect(JSON.stringify(keyedList)).not.toContain("sk-ant-fake-key-987");
  });

  it("warns, rather than failing, when the local server cannot be reached", async () => {
    const unreachable = await createModelRegistry({
      env: { LOCAL_OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
      builtins: false,
    });
    const list = await unreachable.list();
    expect(list.models.every((model) => model.provider === "mirror")).toBe(true);
    expect(list.warnings[0]).toMatch(
      /^The local OpenAI-compatible server at http:\/\/127\.0\.0\.1:9\/v1 could not be listed/,
    );
  });
});

/** A raw connection that sends a request and then never reads a byte of the answer. */
function nonReadingClient(targetPort: number, body: string): Socket {
  const socket = connect(targetPort, "127.0.0.1");
  socket.pause();
  socket.on("error", () => undefined);
  socket.write(
    `POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

const flood = (megabytes: number) =>
  streamBody("local", "fixture-flood", [{ role: "user", content: `flood ${megabytes}`, timestamp: 1 }]);

describe("a client that stops reading", () => {
  it("is let go after the read timeout, and its upstream request is aborted", async () => {
    const log: string[] = [];
    const proxy = await listen({
      clientReadTimeoutMs: 300,
      maxUnsentBytes: 1024 * 1024 * 1024,
      log: (line) => log.push(line),
    });
    const before = fixture.events.closedEarly;
    const client = nonReadingClient(proxy.port, flood(400));
    try {
      await waitFor(() => log.some((line) => line.includes("it read nothing for 300 ms")), 15_000);
      await waitFor(() => fixture.events.closedEarly === before + 1);
    } finally {
      client.destroy();
      proxy.server.close();
    }
  });

  it("is let go once it is more than the byte limit behind, so a stream's memory is bounded", async () => {
    const log: string[] = [];
    const proxy = await listen({
      clientReadTimeoutMs: 60_000,
      maxUnsentBytes: 512 * 1024,
      log: (line) => log.push(line),
    });
    const before = fixture.events.closedEarly;
    const client = nonReadingClient(proxy.port, flood(400));
    try {
      await waitFor(() => log.some((line) => line.includes("it fell more than 512 kB behind")), 15_000);
      await waitFor(() => fixture.events.closedEarly === before + 1);
    } finally {
      client.destroy();
      proxy.server.close();
    }
  });

  it("does not touch a client that reads as fast as the stream comes, however large the reply", async () => {
    const log: string[] = [];
    const proxy = await listen({
      clientReadTimeoutMs: 2_000,
      maxUnsentBytes: 256 * 1024,
      log: (line) => log.push(line),
    });
    try {
      const reply = await send("/api/stream", { method: "POST", headers: auth, body: flood(16) }, proxy.port);
      const list = events(reply.body);
      expect(list.at(-1)?.type).toBe("done");
      const text = list.filter((event) => event.type === "text_delta").map((event) => String(event.delta));
      expect(text.join("").length).toBe(16 * 1024 * 1024);
      expect(log).toEqual([]);
    } finally {
      proxy.server.close();
    }
    // 16 MB through a real socket: seconds on a busy machine, and it must finish, not race a clock.
  }, 60_000);
});

describe("request bodies", () => {
  /** Sends the headers and `firstBytes` of the body, then one more byte per interval until stopped. */
  function tricklingUpload(targetPort: number, body: string, firstBytes: number, intervalMs: number) {
    const socket = connect(targetPort, "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", () => undefined);
    socket.write(
      `POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, firstBytes)}`,
    );
    let sent = firstBytes;
    const timer = setInterval(() => {
      if (sent < body.length - 1) socket.write(body.charAt(sent++));
    }, intervalMs);
    return {
      answer: () => answer,
      stop: () => clearInterval(timer),
      destroy: () => {
        clearInterval(timer);
        socket.destroy();
      },
    };
  }

  it("does not take a stream slot while the body is still arriving", async () => {
    const proxy = await listen({ maxConcurrentStreams: 1, bodyIdleTimeoutMs: 1_000 });
    const uploads = [0, 1].map(() =>
      tricklingUpload(proxy.port, streamBody("mirror", "mirror-instant"), 10, 50),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reply = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") },
        proxy.port,
      );
      expect(reply.status).toBe(200);
      expect(events(reply.body).at(-1)?.type).toBe("done");
    } finally {
      for (const upload of uploads) upload.destroy();
      proxy.server.close();
    }
  });

  it("answers 408 and closes the connection when the body goes silent", async () => {
    const proxy = await listen({ bodyIdleTimeoutMs: 300 });
    const upload = tricklingUpload(proxy.port, streamBody("mirror", "mirror-instant"), 10, 50);
    try {
      await new Promise((resolve) => setTimeout(resolve, 400));
      // Still trickling: a body that keeps arriving is not cut off.
      expect(upload.answer()).toBe("");
      upload.stop();
      await waitFor(() => upload.answer().includes("\r\n\r\n{"), 5_000);
      expect(upload.answer()).toMatch(/^HTTP\/1\.1 408/);
      expect(upload.answer()).toContain("The request body stalled: nothing arrived for 300 ms.");
      expect(upload.answer().toLowerCase()).toContain("x-content-type-options: nosniff");
    } finally {
      upload.destroy();
      proxy.server.close();
    }
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
      { LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`, LOCAL_OPENAI_API_KEY: "k3y" },
      "fixture-echo-auth",
    );
    expect(reply.text).toBe("You sent: Authorization: Bearer [redacted]");
    expect(reply.raw).not.toContain("k3y");
    expect(reply.last?.type).toBe("done");
  });

  it("scrubs a long key that arrives two characters at a time", async () => {
    const key = "sk-local-0123456789abcdefghij";
    const reply = await streamedText(
      { LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`, LOCAL_OPENAI_API_KEY: key },
      "fixture-echo-auth",
    );
    expect(reply.text).toBe("You sent: Authorization: Bearer [redacted]");
    for (let at = 0; at + 6 <= key.length; at += 3) expect(reply.raw).not.toContain(key.slice(at, at + 6));
  });

  it("keeps a token in the local server's URL path out of error texts", async () => {
    const reply = await streamedText(
      { LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1/tok3nSecret/` },
      "fixture-break",
    );
    expect(reply.last?.type).toBe("error");
    expect(String(reply.last?.errorMessage)).toMatch(
      new RegExp(`^Could not reach local at http://127\\.0\\.0\\.1:${fixture.port}/v1/\\[redacted\\]`),
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

describe("security headers", () => {
  const expectProtected = (reply: Reply, what: string) => {
    expect(reply.headers["x-content-type-options"], what).toBe("nosniff");
    expect(reply.headers["x-frame-options"], what).toBe("DENY");
    expect(reply.headers["content-security-policy"], what).toBe("frame-ancestors 'none'");
    expect(reply.headers["referrer-policy"], what).toBe("no-referrer");
    expect(reply.headers["cache-control"], what).toMatch(/no-store/);
  };

  it("are on every API answer, errors included", async () => {
    const stream = { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") };
    const cases: [string, Promise<Reply>, number][] = [
      ["session", send("/api/session"), 200],
      ["models", send("/api/models"), 200],
      ["stream", send("/api/stream", stream), 200],
      ["unknown endpoint", send("/api/nope"), 404],
      ["wrong method", send("/api/stream"), 405],
      ["no token", send("/api/stream", { ...stream, headers: {} }), 401],
      ["foreign origin", send("/api/models", { headers: { Origin: "http://evil.example" } }), 403],
      ["bad JSON", send("/api/stream", { ...stream, body: "{nope" }), 400],
      ["too large", send("/api/stream", { ...stream, body: "x".repeat(100 * 1024) }), 413],
    ];
    for (const [what, pending, status] of cases) {
      const reply = await pending;
      expect(reply.status, what).toBe(status);
      expectProtected(reply, what);
    }
  });

  it("are on the 429 and 500 answers too", async () => {
    const failing: ModelRegistry = { ...registry, list: () => Promise.reject(new Error("boom")) };
    const proxy = await listen({ registry: failing, maxConcurrentStreams: 1 });
    const controller = new AbortController();
    const long = streamBody("mirror", "mirror", [{ role: "user", content: "y".repeat(400), timestamp: 1 }]);
    const open = send(
      "/api/stream",
      { method: "POST", headers: auth, body: long, signal: controller.signal },
      proxy.port,
    ).catch(() => undefined);
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const busy = await send("/api/stream", { method: "POST", headers: auth, body: long }, proxy.port);
      expect(busy.status).toBe(429);
      expectProtected(busy, "429");
      const broken = await send("/api/models", {}, proxy.port);
      expect(broken.status).toBe(500);
      expectProtected(broken, "500");
    } finally {
      controller.abort();
      await open;
      proxy.server.close();
    }
  });
});
