import { viewFactTokens, viewModelTokens } from "./view-tokens.ts";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTextTokens,
} from "@earendil-works/pi-ai/utils/estimate";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { convertToLlm } from "../messages/convert.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createCustomMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "../messages/factories.ts";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../messages/policies.ts";
import { projectFacts, projectModelView, summarize } from "./project.ts";
import { pathTo } from "../messages/entries.ts";
import { piTrees } from "./pi-sessions.test-support.ts";
import { projectSession } from "./session-projection.ts";

const usage = zeroUsage();
const reply = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "a",
  provider: "p",
  model: "m",
  usage,
  stopReason: "stop",
  timestamp: 3,
});
const system: AgentMessage = { role: "system", content: "prompt", timestamp: 0 };
const bash = (exclude: boolean) =>
  createBashExecution(
    {
      command: "ls",
      output: "a",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      excludeFromContext: exclude,
    },
    4,
  );

const userTextNotifications: ContextSettings = {
  ...DEFAULT_CONTEXT_SETTINGS,
  policies: { ...DEFAULT_CONTEXT_SETTINGS.policies, notification: "userText" },
};

describe("projectModelView", () => {
  const facts: AgentMessage[] = [
    system,
    createUserMessage("one", 1),
    createNotification("hidden note", "info", 2),
    reply("two"),
    bash(false),
    bash(true),
    createCustomMessage("k", "custom text", false, undefined, 5),
  ];

  it("gives each fact its fate and links every model message to its fact", () => {
    const view = projectFacts(facts, DEFAULT_CONTEXT_SETTINGS);
    expect(view.fates).toEqual(["sent", "sent", "hidden", "sent", "converted", "excluded", "converted"]);
    expect(Array.from(view.sourceOf)).toEqual([0, 1, 3, 4, 6]);
    expect(Array.from(view.targetOf)).toEqual([0, 1, -1, 2, 3, -1, 4]);
    expect(view.counts).toMatchObject({ sent: 3, converted: 2, hidden: 1, excluded: 1, compacted: 0 });
    expect(summarize(view)).toBe("7 facts → 5 model messages: 1 hidden, 1 excluded, 2 converted");
  });

  it("is exactly what the session's pipeline produces (the projection's context, then convertToLlm)", () => {
    for (const settings of [DEFAULT_CONTEXT_SETTINGS, userTextNotifications]) {
      const view = projectFacts(facts, settings);
      expect(view.messages).toEqual(convertToLlm(facts, settings.policies));
    }
  });

  it("follows a policy change at once", () => {
    const view = projectFacts(facts, userTextNotifications);
    expect(view.fates[2]).toBe("converted");
    expect(view.messages[2]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "[Notification] hidden note" }],
    });
  });

  it("traces compaction and context edits of a session tree to the facts, as pi builds the context", () => {
    const [, , , compacted, , edits] = piTrees();
    if (!compacted || !edits) throw new Error("trees missing");
    const compactedView = projectModelView(
      projectSession(pathTo(compacted.entries, compacted.leafId)),
      DEFAULT_CONTEXT_SETTINGS,
    );
    expect(compactedView.fates).toEqual([
      "carried",
      "compacted",
      "compacted",
      "sent",
      "sent",
      "converted",
      "sent",
      "sent",
    ]);
    // The compaction's recorded prompt and its summary reach the model first, then the kept tail.
    expect(Array.from(compactedView.sourceOf)).toEqual([5, 5, 3, 4, 6, 7]);
    const editedView = projectModelView(
      projectSession(pathTo(edits.entries, edits.leafId)),
      DEFAULT_CONTEXT_SETTINGS,
    );
    expect(editedView.fates).toEqual(["sent", "edited", "edited", "sent", "edited", "failedAttempt", "sent"]);
    expect(editedView.targetOf[5]).toBe(-1);
    expect(editedView.edits.get(1)).toMatchObject({ kind: "edited" });
    expect(summarize(editedView)).toBe("7 facts → 6 model messages: 3 edited, 1 failed attempt left out");
  });

  it("never sends a role it does not know, and counts it as nothing", () => {
    const strange = { role: "wizard", spell: "fireball", message: createUserMessage("x"), timestamp: 1 };
    const view = projectFacts(
      [createUserMessage("u", 1), strange as unknown as AgentMessage],
      DEFAULT_CONTEXT_SETTINGS,
    );
    expect(view.fates).toEqual(["sent", "unknown"]);
    expect(view.messages).toHaveLength(1);
    expect(viewFactTokens(view)).toBe(viewModelTokens(view));
  });

  it("matches the pipeline on random histories, including held-back policy messages", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const makers: (() => AgentMessage)[] = [
      () => createUserMessage("u"),
      () => reply("r"),
      () => ({
        ...reply(""),
        content: [{ type: "toolCall", id: `c${Math.floor(random() * 3)}`, name: "t", arguments: {} }],
        stopReason: "toolUse",
      }),
      () => ({
        role: "toolResult",
        toolCallId: `c${Math.floor(random() * 3)}`,
        toolName: "t",
        content: [],
        isError: false,
        timestamp: 1,
      }),
      () => createNotification("n"),
      () => createApprovalRequest({ action: "a" }),
      () => createProgress("p"),
      () => bash(random() < 0.5),
      () => ({ role: "system", content: "later", timestamp: 2 }),
    ];
    for (let round = 0; round < 200; round++) {
      const history = Array.from({ length: 1 + Math.floor(random() * 25) }, () =>
        (makers[Math.floor(random() * makers.length)] as () => AgentMessage)(),
      );
      const settings: ContextSettings = {
        applyCompaction: true,
        policies: {
          notification: random() < 0.5 ? "hidden" : "userText",
          approval_request: random() < 0.5 ? "hidden" : "userText",
          progress: "userText",
        },
      };
      const view = projectFacts(history, settings);
      expect(view.messages).toEqual(convertToLlm(history, settings.policies));
      view.messages.forEach((message, index) => {
        const source = view.sourceOf[index] as number;
        expect(view.targetOf[source]).toBe(index);
        if (view.fates[source] === "sent") expect(message).toBe(history[source]);
      });
    }
  });

  it("estimates tokens for both sides with pi-ai's estimator, the model's context anchored on usage", () => {
    const question = createUserMessage("x".repeat(400), 1);
    const facts = [question, createNotification("y".repeat(40))];
    const view = projectFacts(facts, DEFAULT_CONTEXT_SETTINGS);
    // The notification is hidden from the model, but it is a fact of the session all the same.
    expect(viewModelTokens(view)).toBe(estimateMessageTokens(question));
    expect(viewFactTokens(view)).toBe(estimateMessageTokens(question) + estimateTextTokens("y".repeat(40)));
    expect([viewModelTokens(view), viewFactTokens(view)]).toEqual([115, 127]);
    // After a reply that reported usage, the model's context counts that usage and estimates what follows.
    const answered = {
      ...reply("ok"),
      usage: { ...zeroUsage(), input: 900, output: 100, totalTokens: 1_000 },
    };
    const next = createUserMessage("z".repeat(35), 3);
    const later = projectFacts([...facts, answered, next], DEFAULT_CONTEXT_SETTINGS);
    expect(viewModelTokens(later)).toBe(1_000 + 10);
    expect(viewModelTokens(later)).toBe(estimateContextTokens(later.messages).tokens);
  });
});
