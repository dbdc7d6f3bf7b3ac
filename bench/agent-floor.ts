/**
 * The floor of a send in a large session: pi's own `Agent`, holding the same facts, from `prompt()` until it
 * calls its stream function, with nothing of the app around it. Before any hook runs, pi works through the
 * whole message list at every prompt (it gathers the tools the conversation has declared so far), so this
 * cost grows with the session whatever the app does; a send's goal below it cannot be met.
 */
import { Agent, streamProxy } from "@earendil-works/pi-agent-core";
import type { Model } from "@earendil-works/pi-ai";
import { syntheticFacts } from "./synthetic-session.ts";

const model: Model<"openai-completions"> = {
  id: "floor",
  name: "floor",
  api: "openai-completions",
  provider: "floor",
  baseUrl: "http://127.0.0.1:9",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1_000_000,
  maxTokens: 1_000,
};

/** The request never leaves: the stream function only says it was reached. */
class RequestReached extends Error {}

let prepared: Agent | undefined;
let reached: (() => void) | undefined;

/** Builds the Agent on `count` facts (outside the measured work: the page opening a session does this). */
export function prepareAgentFloor(count: number): number {
  prepared = new Agent({
    initialState: { model, systemPrompt: "", messages: syntheticFacts(count), tools: [] },
    streamFn: () => {
      reached?.();
      throw new RequestReached("the floor stops where the request would leave");
    },
  });
  return prepared.state.messages.length;
}

/** Prompts the prepared Agent; resolves when pi calls its stream function (milliseconds since the prompt). */
export async function promptAgentFloor(): Promise<number> {
  const agent = prepared;
  if (!agent) throw new Error("prepareAgentFloor first");
  const before = agent.state.messages.length;
  const started = performance.now();
  const streamCalled = new Promise<void>((resolve) => (reached = resolve));
  const run = agent.prompt("benchmark prompt");
  await streamCalled;
  const ms = performance.now() - started;
  // pi turns the stream function's error into the reply's error; the next prompt starts from the same facts.
  await run.catch(() => undefined);
  agent.state.messages = agent.state.messages.slice(0, before);
  return ms;
}

/** The floor page's showing of a reply (`openFloorPage` in `app-page.mjs`). */
interface ShownStream {
  start(): void;
  update(text: string): void;
}

/**
 * The floor of a streamed reply in an app on pi: pi's `Agent` with pi's `streamProxy` reading the benchmark's
 * stream, and the reply's text handed from the Agent's `message_update` events to the floor page's showing,
 * with nothing of the app around it. What pi's reading of each token and its chain of events cost before an
 * app on it does anything. Sets `window.__bench.begin`, which sends one prompt each time.
 */
export function prepareAgentStreamFloor(): void {
  const bench = (window as unknown as { __bench: { begin: () => void; showStream: ShownStream } }).__bench;
  const shown = bench.showStream;
  const agent = new Agent({
    initialState: { model, systemPrompt: "", messages: [], tools: [] },
    streamFn: (streamModel, context, options) =>
      streamProxy(streamModel, context, { ...options, proxyUrl: location.origin, authToken: "floor" }),
  });
  agent.subscribe((event) => {
    if (event.type !== "message_update" || event.message.role !== "assistant") return;
    shown.update(event.message.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
  });
  bench.begin = () => {
    agent.state.messages = [];
    shown.start();
    void agent.prompt("benchmark prompt");
  };
}
