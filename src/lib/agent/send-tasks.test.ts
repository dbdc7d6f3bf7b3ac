import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatSession } from "./chat-session.svelte.ts";
import { useFakeProxy, world } from "./chat-session.test-support.ts";
import { createUserMessage } from "../messages/factories.ts";
import { CallRecorder } from "./recording/call-recorder.ts";
import { Transcript } from "./transcript.svelte.ts";

/** What happened during a send, in order: each new task the page was given back for, and each step. */
const log: string[] = [];

// Marked as the new task starts (when the yield resolves), so what ran before it belongs to the task before.
vi.mock("./yield-to-page.ts", async (original) => {
  const real = await original<typeof import("./yield-to-page.ts")>();
  return {
    ...real,
    yieldToPage: async () => {
      await real.yieldToPage();
      log.push("new task");
    },
  };
});

useFakeProxy();

afterEach(() => {
  vi.restoreAllMocks();
  log.length = 0;
});

/**
 * A fact that notes each time pi's `declareToolChanges` reads it: pi walks the whole context there (through
 * pi-ai's `getCurrentTools`, which reads every message's role), which in a large session is pi's longest
 * step. pi does not promise where it walks; this finds its walks by its function's name on the stack.
 */
function watchedFact(): AgentMessage {
  const message = createUserMessage("watched");
  return Object.defineProperty({ ...message }, "role", {
    enumerable: true,
    get() {
      const stack = new Error().stack ?? "";
      if (/at declareToolChanges \(.*pi-agent-core/.test(stack)) log.push("pi walks the context");
      return "user";
    },
  });
}

/** The log cut where each new task starts. */
function tasks(): string[][] {
  const cut: string[][] = [[]];
  for (const step of log) {
    if (step === "new task") cut.push([]);
    else cut.at(-1)?.push(step);
  }
  return cut;
}

describe("a send's tasks", () => {
  it("walks pi's context in tasks of pi's own, apart from storing the prompt and building the request", async () => {
    const { tab } = world();
    const deps = tab("a");
    const route = deps.router.route;
    const session = await ChatSession.create({
      ...deps,
      router: {
        route: (model) => {
          log.push("the request is built and sent");
          return route(model);
        },
      },
    });
    await session.inject(watchedFact(), "append");
    const append = Transcript.prototype.append;
    vi.spyOn(Transcript.prototype, "append").mockImplementation(function (this: Transcript, messages) {
      for (const message of messages) log.push(`the session stores a ${message.role} message`);
      return append.call(this, messages);
    });
    log.length = 0;

    expect(await session.send("hello")).toBe(true);

    const all = tasks();
    const pisOwn = all.filter((task) => task.includes("pi walks the context"));
    // pi walks the context as the prompt starts and again before the request (both found, or nothing is tested).
    expect(pisOwn.flat().filter((step) => step === "pi walks the context").length).toBeGreaterThanOrEqual(2);
    expect(log).toContain("the session stores a user message");
    expect(log).toContain("the request is built and sent");
    // Each task with one of pi's walks holds nothing else: no storing, no request, and not both walks.
    for (const task of pisOwn) expect(task).toEqual(["pi walks the context"]);
  });

  it("records the call (a walk of the request for its facts) and composes the body in tasks apart", async () => {
    const { tab } = world();
    const session = await ChatSession.create(tab("a"));
    const begin = CallRecorder.prototype.begin;
    vi.spyOn(CallRecorder.prototype, "begin").mockImplementation(function (this: CallRecorder, ...args) {
      log.push("the call is recorded with the facts it sends");
      return begin.apply(this, args);
    });
    // The body's Blob is composed as the request is handed to fetch (proxy-stream.ts).
    const proxyFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).endsWith("/api/stream")) log.push("the body is composed and sent");
      return proxyFetch(input, init);
    });
    log.length = 0;

    expect(await session.send("hello")).toBe(true);

    const recorded = tasks().filter((task) => task.includes("the call is recorded with the facts it sends"));
    expect(recorded).toHaveLength(1);
    expect(log).toContain("the body is composed and sent");
    expect(recorded[0]).not.toContain("the body is composed and sent");
  });
});
