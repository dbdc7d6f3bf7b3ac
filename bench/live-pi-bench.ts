import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { startFixtureServer } from "../e2e/fixtures/openai-fixture-server.mjs";
import { PiProcess, piWorld, type PiWorld } from "../e2e/fixtures/pi-process.ts";
import { startPlayground } from "../e2e/fixtures/playground-server.ts";

/**
 * The cost of watching a pi: real pi coding agents (the pinned CLI on a Node 22 from the registry,
 * offline against the same loopback fixture) prompted in turn in the same run: one with the playground's
 * extension streaming to a running playground, one without the extension, and one with the extension and
 * no playground at its address. Each prompt is one model call; its time is from the prompt to pi settling,
 * so it holds everything the extension's hooks do in pi.
 */
export interface LivePiOverhead {
  /** Time per call of the pi with the extension and a running playground. */
  withMs: number[];
  /** The same prompt's time on the pi without the extension. */
  withoutMs: number[];
  /** And on a pi with the extension whose playground is down (nothing listens at its address). */
  downMs: number[];
  /**
   * CPU time per call of each pi, and of the playground's server, over blocks of calls (Linux only: read
   * from /proc; empty elsewhere). Steadier than wall time on a shared machine.
   */
  withCpuMs: number[];
  withoutCpuMs: number[];
  playgroundCpuMs: number[];
  /** Entries the playground held of the watched pi at the end, and what pi held. */
  liveEntries: number;
  piEntries: number;
}

const TOKEN = "bench-live-pairing-token-0123456789";

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

/** Calls per CPU sample: /proc counts in clock ticks (10 ms), so a sample spans several calls. */
const CPU_BLOCK = 10;
const TICK_MS = 10;

/** A process's CPU time so far (user + system), in ms; undefined where /proc is not there. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

async function timedPrompt(pi: PiProcess, message: string): Promise<number> {
  const started = performance.now();
  await pi.prompt(message);
  return performance.now() - started;
}

/** How many entries the playground holds of its one live pi (read as the page reads it). */
async function liveEntries(url: string): Promise<number> {
  const { token } = (await (await fetch(`${url}/api/session`)).json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const controller = new AbortController();
  const stream = await fetch(`${url}/api/live/events`, { headers, signal: controller.signal });
  const reader = stream.body?.getReader();
  let text = "";
  while (reader && !text.includes("\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  controller.abort();
  const { connections } = JSON.parse(text.slice(text.indexOf("data: ") + 6, text.indexOf("\n\n"))) as {
    connections: { id: string }[];
  };
  const id = connections[0]?.id;
  if (!id) return 0;
  const state = (await (await fetch(`${url}/api/live/sessions/${id}`, { headers })).json()) as {
    entries: unknown[];
  };
  return state.entries.length;
}

/** `calls` prompts on each pi, alternating which goes first, after one warm-up prompt each. */
export async function livePiOverhead({ calls }: { calls: number }): Promise<LivePiOverhead> {
  const fixture = await startFixtureServer(0);
  const playground = await startPlayground(await freePort(), { PI_PLAYGROUND_TOKEN: TOKEN });
  const worlds: PiWorld[] = [piWorld(fixture.port), piWorld(fixture.port), piWorld(fixture.port)];
  const watched = new PiProcess({
    world: worlds[0]!,
    env: { PI_PLAYGROUND_URL: playground.url, PI_PLAYGROUND_TOKEN: TOKEN },
  });
  const plain = new PiProcess({ world: worlds[1]!, extension: false });
  const orphan = new PiProcess({
    world: worlds[2]!,
    env: { PI_PLAYGROUND_URL: `http://127.0.0.1:${await freePort()}`, PI_PLAYGROUND_TOKEN: TOKEN },
  });
  try {
    await watched.prompt("hello");
    await plain.prompt("hello");
    await orphan.prompt("hello");
    if (!watched.stderr.includes("This session is live in the playground"))
      throw new Error(`The watched pi did not reach the playground: ${watched.stderr}`);
    const withMs: number[] = [];
    const withoutMs: number[] = [];
    const downMs: number[] = [];
    const withCpuMs: number[] = [];
    const withoutCpuMs: number[] = [];
    const playgroundCpuMs: number[] = [];
    const pids = [watched.child.pid, plain.child.pid, playground.process.pid];
    let cpuAtBlock = pids.map(cpuMs);
    for (let index = 0; index < calls; index++) {
      if (index > 0 && index % CPU_BLOCK === 0) {
        const now = pids.map(cpuMs);
        const perCall = now.map((ms, which) => {
          const before = cpuAtBlock[which];
          return ms === undefined || before === undefined ? undefined : (ms - before) / CPU_BLOCK;
        });
        if (perCall.every((ms) => ms !== undefined)) {
          withCpuMs.push(perCall[0]!);
          withoutCpuMs.push(perCall[1]!);
          playgroundCpuMs.push(perCall[2]!);
        }
        cpuAtBlock = now;
      }
      const message = `hello ${index}`;
      // Each pi goes first, second and third in turn.
      const turns: [PiProcess, number[]][] = [
        [watched, withMs],
        [plain, withoutMs],
        [orphan, downMs],
      ];
      for (let step = 0; step < turns.length; step++) {
        const [pi, times] = turns[(index + step) % turns.length]!;
        times.push(await timedPrompt(pi, message));
      }
    }
    const piEntries = (await watched.entries()).length;
    // The extension sends in the background: give it a moment to have sent the last prompt's entries.
    let held = 0;
    for (let attempt = 0; attempt < 50 && held < piEntries; attempt++) {
      held = await liveEntries(playground.url);
      if (held < piEntries) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!orphan.stderr.includes("No playground answers"))
      throw new Error(`The pi whose playground is down did not try it: ${orphan.stderr}`);
    return {
      withMs,
      withoutMs,
      downMs,
      withCpuMs,
      withoutCpuMs,
      playgroundCpuMs,
      liveEntries: held,
      piEntries,
    };
  } finally {
    await Promise.all([watched.stop(), plain.stop(), orphan.stop()]);
    await playground.stop();
    await fixture.close();
    for (const world of worlds) world.remove();
  }
}
