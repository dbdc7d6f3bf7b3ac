import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message } from "@earendil-works/pi-ai";
import { captureJson } from "../src/shared/payloads/captured-json.ts";
import { createApiHandler, DEFAULT_LIMITS } from "../src/server/api-handler.ts";
import { createModelRegistry, type ModelRegistry } from "../src/server/model-registry.ts";
import { payloadReplacer } from "../src/server/payload-redaction.ts";
import { createRedactor } from "../src/server/redact.ts";
import { LOOPBACK_HOSTNAMES } from "../src/server/request-guard.ts";

/**
 * Proxy overhead: the same offline stream, once consumed in-process from pi-ai, once through
 * `/api/stream` on loopback and parsed line by line as `streamProxy` does, and once more with the call
 * named (as the page names every call) so that its provider payload is captured. The unpaced mirror model
 * makes the stream as fast as it can be, so the difference is the proxy's own cost (JSON, HTTP, parsing,
 * and the capture).
 */
export interface ProxyRun {
  events: number;
  inProcessMs: number;
  proxyMs: number;
  /** The same request with its payload captured (`onPayload`, serialized, scrubbed, kept). */
  captureMs: number;
}

const TOKEN = "bench-token";

function messagesFor(events: number): Message[] {
  // The mirror quotes the last user message back in 4-character chunks: one event per chunk.
  const text = "abcd".repeat(events);
  return [{ role: "user", content: text, timestamp: 0 }];
}

async function inProcess(
  registry: ModelRegistry,
  messages: Message[],
): Promise<{ ms: number; events: number }> {
  const model = registry.resolve("mirror", "mirror-instant");
  if (!model) throw new Error("the mirror-instant model is missing");
  const started = performance.now();
  let events = 0;
  for await (const event of registry.models.streamSimple(model, { messages }, {})) {
    events++;
    if (event.type === "done" || event.type === "error") break;
  }
  return { ms: performance.now() - started, events };
}

function throughProxy(
  port: number,
  messages: Message[],
  callId?: string,
): Promise<{ ms: number; events: number }> {
  const body = JSON.stringify({
    model: { provider: "mirror", id: "mirror-instant" },
    context: { messages },
    options: callId ? { metadata: { callId } } : {},
  });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let events = 0;
    let buffer = "";
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/stream",
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          const lines = buffer.split("\n");
          buffer = lines.pop() ?? "";
          for (const line of lines) {
            if (!line.startsWith("data: ")) continue;
            JSON.parse(line.slice(6));
            events++;
          }
        });
        res.on("end", () => resolve({ ms: performance.now() - started, events }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export async function proxyOverhead(options: { events: number; runs: number }): Promise<ProxyRun[]> {
  // Configured keys, so that scrubbing every frame and every captured payload is part of the measurement.
  const registry = await createModelRegistry({
    env: {
      LOCAL_OPENAI_API_KEY: "sk-bench-0123456789abcdef",
      OPENAI_API_KEY: "sk-bench-not-a-real-key-0001",
      ANTHROPIC_API_KEY: "sk-ant-bench-not-real-02",
    },
    builtins: false,
  });
  const handler = createApiHandler({
    registry,
    token: TOKEN,
    hostnames: LOOPBACK_HOSTNAMES,
    ...DEFAULT_LIMITS,
    upstreamIdleTimeoutMs: 60_000,
    keepAliveMs: 60_000,
    log: () => undefined,
  });
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const messages = messagesFor(options.events);
  const runs: ProxyRun[] = [];
  try {
    // One warm-up of each, so that JIT and connection setup are not measured.
    await inProcess(registry, messages);
    await throughProxy(port, messages);
    await throughProxy(port, messages, "bench-call-warm-up");
    for (let run = 0; run < options.runs; run++) {
      const local = await inProcess(registry, messages);
      const remote = await throughProxy(port, messages);
      const captured = await throughProxy(port, messages, `bench-call-${run.toString().padStart(4, "0")}`);
      runs.push({ events: remote.events, inProcessMs: local.ms, proxyMs: remote.ms, captureMs: captured.ms });
    }
  } finally {
    server.close();
  }
  return runs;
}

/** The capture of one large request body on its own: serialized once, every string scrubbed. */
export function captureCost(options: { bytes: number; runs: number }): number[] {
  const replacer = payloadReplacer(
    createRedactor({
      OPENAI_API_KEY: "sk-bench-not-a-real-key-0001",
      ANTHROPIC_API_KEY: "sk-ant-bench-not-real-02",
    }),
  );
  // A long conversation: many messages of ordinary prose, as a real provider body carries them.
  const message = (index: number) => ({
    role: index % 2 ? "assistant" : "user",
    content: "lorem ipsum ".repeat(80),
  });
  const count = Math.ceil(options.bytes / JSON.stringify(message(0)).length);
  const payload = { model: "bench", messages: Array.from({ length: count }, (_, index) => message(index)) };
  const samples: number[] = [];
  for (let run = 0; run <= options.runs; run++) {
    const started = performance.now();
    captureJson(payload, 2 * 1024 * 1024, replacer);
    if (run > 0) samples.push(performance.now() - started);
  }
  return samples;
}
