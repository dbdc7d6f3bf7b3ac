import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFixtureServer, type Fixture } from "../e2e/fixtures/openai-fixture-server.mjs";

/**
 * The proxy's memory under the loads its limits are there for, measured as the resident set of a real
 * standalone proxy process (`dist-proxy/proxy-main.js`, built by `npm run build:proxy`) with its default
 * limits, against a loopback OpenAI-compatible fixture. Three loads, one after the other, each from the
 * same idle baseline:
 *  - forty calls in a row with an 18 MB request body each, each named so its provider payload is kept;
 *  - sixteen previews of an 18 MB next call at once;
 *  - four clients that open a flooding stream and never read a byte.
 * The resident set is sampled every 20 ms from /proc (Linux only); what a load adds is its peak minus the
 * idle figure, and what stays is the figure some seconds after it ended.
 */

export interface MemoryLoad {
  name: string;
  /** Resident set of the idle proxy before the load, MB. */
  idleMb: number;
  /** Highest resident set while the load ran, MB. */
  peakMb: number;
  /** Resident set `settleMs` after the load ended, MB. */
  settledMb: number;
  /** Resident set after that and a full garbage collection, MB. */
  collectedMb: number;
  /** JavaScript heap and buffers in use after that collection: what the proxy still holds, MB. */
  heldMb: number;
  /** The same before the load, MB. */
  idleHeldMb: number;
  /** Why the proxy let clients go, for the load of clients that never read. */
  dropReasons: string[];
  /** What the configured limits let the proxy keep once the load has ended, MB (see `docs/security.md`). */
  boundMb: number;
  /** Answers by status, for the loads whose point is refusing (429). */
  statuses: Record<string, number>;
  /** How long the load took, ms. */
  ms: number;
}

const MB = 1024 * 1024;
const TOKEN = "bench-memory-token";
const BODY_MB = 18;

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

class RssSampler {
  readonly #pid: number;
  #peak = 0;
  #timer: NodeJS.Timeout | undefined;
  constructor(pid: number) {
    this.#pid = pid;
  }
  start(): void {
    this.#peak = residentMb(this.#pid);
    this.#timer = setInterval(() => {
      this.#peak = Math.max(this.#peak, residentMb(this.#pid));
    }, 20);
  }
  stop(): number {
    clearInterval(this.#timer);
    return Math.max(this.#peak, residentMb(this.#pid));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startProxy(
  root: string,
  fixture: Fixture,
): Promise<{ child: ChildProcess; port: number; log: string[] }> {
  const port = await freePort();
  const log: string[] = [];
  // Only what the proxy needs: no provider keys of the machine's own environment are read.
  const preload = pathToFileURL(join(root, "bench", "gc-on-signal.mjs")).href;
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE
        ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof", "--import", "file:///tmp/exit-on-term.mjs"]
        : []),
      "--expose-gc",
      "--import",
      preload,
      join(root, "dist-proxy", "proxy-main.js"),
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        PROXY_TOKEN: TOKEN,
        LOCAL_OPENAI_BASE_URL: `http://127.0.0.1:${fixture.port}/v1`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const listening = new Promise<void>((resolve, reject) => {
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() !== "") log.push(line);
        if (line.includes("listening on")) resolve();
      }
    };
    child.stderr?.on("data", onLine);
    child.stdout?.on("data", onLine);
    child.once("exit", (code) => reject(new Error(`the proxy exited (${code}): ${log.join("\n")}`)));
  });
  await listening;
  return { child, port, log };
}

function send(port: number, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    // Refused before its body was read (429 with "Connection: close"): the socket closes under the upload.
    req.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "EPIPE" || error.code === "ECONNRESET"
        ? resolve({ status: 0, text: "" })
        : reject(error),
    );
    req.end(body);
  });
}

/** A request whose context holds `megabytes` of text in an earlier turn; the model is asked something short. */
function largeRequest(megabytes: number, options: Record<string, unknown>): string {
  const filler = "context line of a large session. "
    .repeat(Math.ceil((megabytes * MB) / 33))
    .slice(0, megabytes * MB - 4096);
  return JSON.stringify({
    model: { provider: "local", id: "fixture-echo" },
    context: {
      messages: [
        { role: "user", content: filler, timestamp: 1 },
        { role: "user", content: "hi", timestamp: 2 },
      ],
    },
    options,
  });
}

function nonReadingClient(port: number, body: string): Socket {
  const socket = connect(port, "127.0.0.1");
  socket.pause();
  socket.on("error", () => undefined);
  socket.write(
    `POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After a full collection: the resident set, and the heap and buffers in use, MB. */
async function collected(
  child: ChildProcess,
  pid: number,
  log: string[],
): Promise<{ rss: number; held: number }> {
  const before = log.length;
  child.kill("SIGUSR2");
  const deadline = Date.now() + 10_000;
  let line: string | undefined;
  while (!(line = log.slice(before).find((entry) => entry.startsWith("gc-memory ")))) {
    if (Date.now() > deadline) throw new Error("the proxy did not report its memory after a collection");
    await pause(50);
  }
  await pause(500);
  const used = JSON.parse(line.slice("gc-memory ".length)) as { heapUsed: number; external: number };
  return { rss: residentMb(pid), held: (used.heapUsed + used.external) / MB };
}

async function measure(
  child: ChildProcess,
  pid: number,
  log: string[],
  name: string,
  boundMb: number,
  settleMs: number,
  load: () => Promise<Record<string, number>>,
): Promise<MemoryLoad> {
  const idle = await collected(child, pid, log);
  const idleMb = residentMb(pid);
  const sampler = new RssSampler(pid);
  sampler.start();
  const started = performance.now();
  const statuses = await load();
  const ms = performance.now() - started;
  const peakMb = sampler.stop();
  await pause(settleMs);
  const settledMb = residentMb(pid);
  const after = await collected(child, pid, log);
  return {
    name,
    idleMb,
    peakMb,
    settledMb,
    collectedMb: after.rss,
    heldMb: after.held,
    idleHeldMb: idle.held,
    boundMb,
    statuses,
    ms,
    dropReasons: [],
  };
}

function count(statuses: Record<string, number>, status: number): void {
  const key = status === 0 ? "closed while uploading" : String(status);
  statuses[key] = (statuses[key] ?? 0) + 1;
}

export async function serverMemory(options: {
  root: string;
  settleMs?: number;
  calls?: number;
}): Promise<MemoryLoad[]> {
  const settleMs = options.settleMs ?? 5_000;
  const fixture = await startFixtureServer(0);
  const { child, port, log } = await startProxy(options.root, fixture);
  const pid = child.pid;
  if (pid === undefined) throw new Error("the proxy has no process id");
  try {
    // Warm up: the first call loads the provider adapters.
    await send(port, "/api/stream", largeRequest(1, {}));
    fixture.requests.length = 0;
    await collected(child, pid, log);
    const loads: MemoryLoad[] = [];

    // Kept payloads: 64 MB for the store (MAX_PAYLOAD_STORE_BYTES), plus the one call in flight.
    loads.push(
      await measure(
        child,
        pid,
        log,
        `40 calls in a row, ${BODY_MB} MB request bodies, payloads kept`,
        64,
        settleMs,
        async () => {
          const statuses: Record<string, number> = {};
          for (let index = 0; index < (options.calls ?? 40); index++) {
            const callId = `call-${String(index).padStart(8, "0")}`;
            const reply = await send(port, "/api/stream", largeRequest(BODY_MB, { metadata: { callId } }));
            count(statuses, reply.status);
            fixture.requests.length = 0;
          }
          return statuses;
        },
      ),
    );

    // Previews: MAX_CONCURRENT_PREVIEWS (2) built at once, every other one refused with 429.
    loads.push(
      await measure(
        child,
        pid,
        log,
        `16 previews of an ${BODY_MB} MB next call at once`,
        0,
        settleMs,
        async () => {
          const statuses: Record<string, number> = {};
          const body = largeRequest(BODY_MB, {});
          const replies = await Promise.all(
            Array.from({ length: 16 }, () => send(port, "/api/preview", body)),
          );
          for (const reply of replies) count(statuses, reply.status);
          return statuses;
        },
      ),
    );

    // Non-reading clients: each let go past MAX_UNSENT_BYTES (4 MB) behind or 30 s without reading; nothing
    // of theirs is kept once they are gone.
    loads.push(
      await measure(child, pid, log, "4 clients that never read a flooding stream", 0, settleMs, async () => {
        const before = log.filter((line) => line.includes("let a client go")).length;
        const clients = Array.from({ length: 4 }, () =>
          nonReadingClient(
            port,
            JSON.stringify({
              model: { provider: "local", id: "fixture-flood" },
              context: { messages: [{ role: "user", content: "flood 256", timestamp: 1 }] },
              options: {},
            }),
          ),
        );
        const deadline = Date.now() + 60_000;
        while (log.filter((line) => line.includes("let a client go")).length < before + 4) {
          if (Date.now() > deadline)
            throw new Error(`the non-reading clients were not let go:\n${log.join("\n")}`);
          await pause(50);
        }
        for (const client of clients) client.destroy();
        return { dropped: 4 };
      }),
    );
    const last = loads.at(-1);
    if (last) last.dropReasons = log.filter((line) => line.includes("let a client go"));
    return loads;
  } finally {
    child.kill();
    await fixture.close();
  }
}
