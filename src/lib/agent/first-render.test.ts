import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatSession } from "./chat-session.svelte.ts";
import { useFakeProxy, world } from "./chat-session.test-support.ts";
import { chainEntries } from "../messages/entries.ts";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { UsageSummer } from "../models/usage.ts";
import { ModelViewProjector } from "../model-view/project.ts";
import { SessionProjector } from "../model-view/session-projector.ts";
import { testSessionMeta } from "../storage/session-meta.test-support.ts";
import { viewPasses } from "./view-passes.ts";

/** What happened as a session opened, in order: each task given back to the page, each pass over its facts. */
const log: string[] = [];
/** What each pass returned last. */
const results = new Map<string, unknown>();

vi.mock("./yield-to-page.ts", async (original) => {
  const real = await original<typeof import("./yield-to-page.ts")>();
  return {
    ...real,
    yieldToPage: () => {
      log.push("yield");
      return real.yieldToPage();
    },
  };
});

// The transcript's index of the stored entries, made in slices of its own before the passes.
vi.mock("./transcript-index.ts", async (original) => {
  const real = await original<typeof import("./transcript-index.ts")>();
  return {
    ...real,
    indexInSlices: async (...args: Parameters<typeof real.indexInSlices>) => {
      const index = await real.indexInSlices(...args);
      log.push("indexed");
      return index;
    },
  };
});

useFakeProxy();

afterEach(() => {
  vi.restoreAllMocks();
  log.length = 0;
  results.clear();
});

/** A stored session of `turns` prompts and replies, opened in a tab of its own, with its passes logged. */
async function openStored(turns: number): Promise<ChatSession> {
  const { store, tab } = world();
  const messages = Array.from({ length: turns }, (_, index) => [
    createUserMessage(`question ${index}`, index),
    createInjectedAssistantMessage(`answer ${index}`, index),
  ]).flat();
  const entries = chainEntries(messages, null);
  await store.createSession(
    testSessionMeta("big", {
      messageCount: entries.length,
      nextSeq: entries.length,
      leafId: entries.at(-1)?.id ?? null,
    }),
    entries,
  );
  logPasses();
  const session = await ChatSession.open(tab("a"), "big");
  if (!session) throw new Error("the stored session did not open");
  return session;
}

/** A view's pass (the chat's layout is one), logged with the facts it was given. */
const viewPass = (facts: readonly unknown[]) => {
  log.push("view");
  results.set("view", facts);
};
viewPasses.push(viewPass);

function logPasses(): void {
  logPass("projection", SessionProjector.prototype, "project");
  logPass("model view", ModelViewProjector.prototype, "project");
  logPass("usage", UsageSummer.prototype, "sum");
}

/**
 * Each pass first ran in a task of its own, after the one that finished the index and after the one
 * before it, the page had a task after the last before the session was shown, and what the first render
 * reads is what those passes made, not a pass of its own.
 */
function expectPassesApart(
  opened: readonly string[],
  kept: ReadonlyMap<string, unknown>,
  session: ChatSession,
) {
  const tasksBefore = (event: string) => {
    expect(opened).toContain(event);
    return opened.slice(0, opened.indexOf(event)).filter((each) => each === "yield").length;
  };
  const [indexed, projection, modelView, usage, view] = [
    "indexed",
    "projection",
    "model view",
    "usage",
    "view",
  ].map(tasksBefore);
  expect(indexed).toBeGreaterThanOrEqual(1);
  expect(projection).toBeGreaterThan(indexed as number);
  expect(modelView).toBeGreaterThan(projection as number);
  expect(usage).toBeGreaterThan(modelView as number);
  expect(view).toBeGreaterThan(usage as number);
  expect(opened.at(-1)).toBe("yield");
  expect(kept.get("view")).toBe(session.facts);
  expect(session.projection).toBe(kept.get("projection"));
  expect(session.modelView).toBe(kept.get("model view"));
  expect(session.usage).toBe(kept.get("usage"));
}

/** Log each call of a pass over a session's facts, and keep what it returned. */
function logPass(name: string, prototype: object, method: string): void {
  const target = prototype as Record<string, (...args: unknown[]) => unknown>;
  const pass = target[method];
  if (!pass) throw new Error(`no method ${method}`);
  vi.spyOn(target, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
    log.push(name);
    const result = pass.apply(this, args);
    results.set(name, result);
    return result;
  });
}

describe("opening a session of many entries", () => {
  it("makes each pass over its facts in a task of its own before it is shown", async () => {
    const session = await openStored(2_500);
    expectPassesApart(log.slice(), new Map(results), session);
    expect(session.facts).toHaveLength(5_000);
  });

  it("does the same for a session made with as many facts (a copy, an import)", async () => {
    const { tab } = world();
    const facts = Array.from({ length: 2_500 }, (_, index) => [
      createUserMessage(`question ${index}`, index),
      createInjectedAssistantMessage(`answer ${index}`, index),
    ]).flat();
    logPasses();
    const session = await ChatSession.create(tab("a"), { facts });
    expectPassesApart(log.slice(), new Map(results), session);
    expect(session.facts).toHaveLength(5_000);
  });

  it("opens a small session in the task that made it", async () => {
    await openStored(10);
    expect(log).not.toContain("yield");
    expect(log).not.toContain("view");
  });
});
