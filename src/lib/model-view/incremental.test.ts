import { contextTokens, factTokens, viewFactTokens, viewModelTokens } from "./view-tokens.ts";
import { tallyContext } from "./context-tally.ts";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createCustomMessage,
  createNotification,
  createUserMessage,
} from "../messages/factories.ts";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../messages/policies.ts";
import { convertToLlm } from "../messages/convert.ts";
import { convertForRequest } from "./request-messages.ts";
import { ModelViewProjector, projectModelView, type TokenEstimate } from "./project.ts";
import { extensionOf, projectSession } from "./session-projection.ts";
import { SessionProjector } from "./session-projector.ts";

/**
 * The incremental projectors against the full projection, over long random histories of everything a
 * session goes through: appends of every kind of fact, tool calls left waiting while an approval is
 * recorded, markers, context edits, compactions, replaced entries, branch switches and policy changes.
 * After every step both must equal what projecting from scratch gives.
 */

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function reply(text: string, toolCallIds: string[], t: number): AgentMessage {
  return {
    role: "assistant",
    content: [
      { type: "text", text },
      ...toolCallIds.map((id) => ({
        type: "toolCall" as const,
        id,
        name: "calculate",
        arguments: { e: id },
      })),
    ],
    api: "mirror",
    provider: "mirror",
    model: "mirror",
    usage,
    stopReason: toolCallIds.length > 0 ? "toolUse" : t % 7 === 0 ? "aborted" : "stop",
    timestamp: t,
  };
}

const ALL_IN: ContextSettings = {
  ...DEFAULT_CONTEXT_SETTINGS,
  policies: { notification: "userText", approval_request: "userText", progress: "userText" },
};

function history(seed: number, steps: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const entries: SessionEntry[] = [];
  let leaf: string | null = null;
  let path: SessionEntry[] = [];
  let counter = 0;
  let waiting: string[] = [];
  let settings: ContextSettings = DEFAULT_CONTEXT_SETTINGS;
  const sessionProjector = new SessionProjector();
  const viewProjector = new ModelViewProjector();
  let extended = 0;

  const add = (fields: Record<string, unknown>) => {
    const entry = {
      ...fields,
      id: `e${counter++}`,
      parentId: leaf,
      timestamp: new Date(counter * 1000).toISOString(),
    } as SessionEntry;
    entries.push(entry);
    leaf = entry.id;
    path = [...path, entry];
  };
  const message = (value: AgentMessage) => add({ type: "message", message: value });

  for (let step = 0; step < steps; step++) {
    const t = step + 1;
    const roll = next();
    if (roll < 0.2) message(createUserMessage(`prompt ${t}`, t));
    else if (roll < 0.32) {
      waiting = next() < 0.5 ? [`call${t}a`, `call${t}b`] : [];
      message(reply(`answer ${t}`, waiting, t));
    } else if (roll < 0.42 && waiting.length > 0) {
      const id = waiting.shift() as string;
      message({
        role: "toolResult",
        toolCallId: id,
        toolName: "calculate",
        content: [{ type: "text", text: `result ${id}` }],
        isError: false,
        timestamp: t,
      });
    } else if (roll < 0.5) message(createApprovalRequest({ action: `Run ${t}`, subject: "subject" }, t));
    else if (roll < 0.56) message(createNotification(`note ${t}`, "info", t));
    else if (roll < 0.6)
      message(
        createBashExecution(
          {
            command: `ls ${t}`,
            output: "out",
            exitCode: 0,
            cancelled: false,
            truncated: false,
            excludeFromContext: next() < 0.3,
          },
          t,
        ),
      );
    else if (roll < 0.64) add({ type: "custom_message", customType: "ctx", content: `c${t}`, display: true });
    else if (roll < 0.68) add({ type: "model_change", provider: "mirror", modelId: `m${t}` });
    else if (roll < 0.72) add({ type: "label", targetId: pick(path).id, label: `l${t}` });
    else if (roll < 0.76 && path.length > 2) {
      const target = pick(path);
      add({
        type: "context_edit",
        targetId: target.id,
        replacement: next() < 0.5 ? null : { content: `edited ${t}` },
      });
    } else if (roll < 0.79 && path.length > 4) {
      add({
        type: "compaction",
        summary: `summary ${t}`,
        firstKeptEntryId: pick(path.slice(-4)).id,
        tokensBefore: 100,
      });
    } else if (roll < 0.83 && path.length > 1) {
      // An entry replaced in place (an approval decided): a new object under the same id.
      const position = Math.floor(next() * path.length);
      const old = path[position] as SessionEntry;
      const replaced = { ...old } as SessionEntry;
      entries[entries.indexOf(old)] = replaced;
      path = path.map((entry, index) => (index === position ? replaced : entry));
    } else if (roll < 0.88 && path.length > 1) {
      // Another branch: back to an earlier entry.
      leaf = pick(path).id;
      path = pathTo(entries, leaf);
      waiting = [];
    } else if (roll < 0.9) settings = settings === ALL_IN ? DEFAULT_CONTEXT_SETTINGS : ALL_IN;
    else message(createCustomMessage("note", `custom ${t}`, next() < 0.5, undefined, t));

    const compaction = next() < 0.9;
    const projection = sessionProjector.project(path, { applyCompaction: compaction });
    expect(projection).toEqual(projectSession(path, { applyCompaction: compaction }));
    if (extensionOf(projection)) extended++;
    const view = viewProjector.project(projection, settings);
    const full = projectModelView(projection, settings);
    expect(view).toEqual(full);
    // A request of the context's facts takes the view's messages: the very objects converting gives.
    const converted = convertToLlm(projection.context, settings.policies);
    const requested = convertForRequest(projection.context.slice(), settings.policies, {
      context: projection.context,
      policies: settings.policies,
      messages: view.messages,
    });
    expect(requested).toHaveLength(converted.length);
    converted.forEach((message, index) => expect(requested[index]).toBe(message));
    // Token totals are estimated when first read. Read on most steps only, so that views extend both
    // views whose totals were read (and carry them on) and views whose totals were not.
    if (t % 3 !== 0)
      expect([viewFactTokens(view), viewModelTokens(view)]).toEqual([
        viewFactTokens(full),
        // pi-ai's own estimate of the whole context, however the view's total was continued.
        contextTokens(full.messages).tokens,
      ]);
  }
  return { extended, steps };
}

describe("incremental projection", () => {
  it("equals the full projection after every step of long random histories", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { extended, steps } = history(seed, 400);
      // Most steps append, and those are the ones taken incrementally: the test exercises both paths.
      expect(extended).toBeGreaterThan(steps / 4);
      expect(extended).toBeLessThan(steps);
    }
  });

  it("estimates only the messages an extended view adds once the model's total was read", () => {
    const sessionProjector = new SessionProjector();
    const viewProjector = new ModelViewProjector();
    const path: SessionEntry[] = [];
    const append = (value: AgentMessage) =>
      path.push({
        type: "message",
        id: `e${path.length}`,
        parentId: path.at(-1)?.id ?? null,
        timestamp: "t",
        message: value,
      } as SessionEntry);
    // Messages the estimate was asked to go over, each time the model's total was read.
    const walked: number[] = [];
    const estimate: TokenEstimate = {
      fact: factTokens,
      context: (messages, from, before) => {
        walked.push(messages.length - from);
        return tallyContext(messages, from, before);
      },
    };
    for (let index = 0; index < 1_000; index++) append(createUserMessage(`prompt ${index}`, index));
    const first = viewProjector.project(sessionProjector.project(path.slice()), DEFAULT_CONTEXT_SETTINGS);
    expect(first.modelTokens(estimate)).toBe(contextTokens(first.messages).tokens);
    append(createUserMessage("one more", 1_000));
    append(reply("and its answer", [], 1_001));
    const second = viewProjector.project(sessionProjector.project(path.slice()), DEFAULT_CONTEXT_SETTINGS);
    expect(second.modelTokens(estimate)).toBe(contextTokens(second.messages).tokens);
    expect(walked).toEqual([first.messages.length, 2]);
  });

  it("extends a grown path instead of projecting it again", () => {
    const projector = new SessionProjector();
    const first = {
      type: "message",
      id: "a",
      parentId: null,
      timestamp: "t",
      message: createUserMessage("a", 1),
    };
    const second = {
      type: "message",
      id: "b",
      parentId: "a",
      timestamp: "t",
      message: createUserMessage("b", 2),
    };
    const before = projector.project([first] as SessionEntry[]);
    const after = projector.project([first, second] as SessionEntry[]);
    expect(extensionOf(after)).toEqual({ from: before, factsFrom: 1, contextFrom: 1 });
    expect(after.facts).toHaveLength(2);
  });

  it("keeps one array for the facts and the context while the path has neither compaction nor edit", () => {
    const projector = new SessionProjector();
    const path: SessionEntry[] = [];
    const append = (fields: Record<string, unknown>) =>
      path.push({
        ...fields,
        id: `e${path.length}`,
        parentId: path.at(-1)?.id ?? null,
        timestamp: "t",
      } as SessionEntry);
    for (let index = 0; index < 3; index++)
      append({ type: "message", message: createUserMessage(`prompt ${index}`, index) });
    const versions = [projector.project(path.slice())];
    // Past the shared positions' first size (1,024), so they grow while earlier versions are held.
    for (let index = 3; index < 2_500; index++) {
      append({ type: "message", message: createUserMessage(`prompt ${index}`, index) });
      if (index % 500 === 0) append({ type: "label", targetId: "e0", label: `l${index}` });
      versions.push(projector.project(path.slice()));
    }
    for (const version of versions) {
      expect(version.context).toBe(version.facts);
      expect(Array.from(version.contextFacts)).toEqual(version.facts.map((_, index) => index));
    }
    // Every version kept its own length and positions as later ones grew.
    expect(versions.map((version) => version.facts.length)).toEqual(versions.map((_, index) => index + 3));
    expect(versions.at(-1)).toEqual(projectSession(path));
    // An edit gives the context an array of its own, and the facts stay as they were.
    append({ type: "context_edit", targetId: "e1", replacement: null });
    const edited = projector.project(path.slice());
    expect(edited.context).not.toBe(edited.facts);
    expect(edited.context).toHaveLength(edited.facts.length - 1);
    expect(edited).toEqual(projectSession(path));
    expect(versions.at(-1)?.facts).toHaveLength(2_500);
  });
});
