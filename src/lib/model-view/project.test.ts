import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { convertToLlm } from "../messages/convert.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createCompactionSummary,
  createCustomMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "../messages/factories.ts";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../messages/policies.ts";
import { projectModelView, summarize } from "./project.ts";
import { transformContext } from "./transform.ts";

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
    const view = projectModelView(facts, DEFAULT_CONTEXT_SETTINGS);
    expect(view.fates).toEqual(["sent", "sent", "hidden", "sent", "converted", "excluded", "converted"]);
    expect(Array.from(view.sourceOf)).toEqual([0, 1, 3, 4, 6]);
    expect(Array.from(view.targetOf)).toEqual([0, 1, -1, 2, 3, -1, 4]);
    expect(view.counts).toEqual({ sent: 3, converted: 2, hidden: 1, excluded: 1, compacted: 0 });
    expect(summarize(view)).toBe("7 facts → 5 model messages: 1 hidden, 1 excluded, 2 converted");
  });

  it("is exactly what the Agent's pipeline produces (transformContext, then convertToLlm)", () => {
    for (const settings of [DEFAULT_CONTEXT_SETTINGS, userTextNotifications]) {
      const view = projectModelView(facts, settings);
      expect(view.messages).toEqual(
        convertToLlm(transformContext(facts, settings.applyCompaction), settings.policies),
      );
    }
  });

  it("follows a policy change at once", () => {
    const view = projectModelView(facts, userTextNotifications);
    expect(view.fates[2]).toBe("converted");
    expect(view.messages[2]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "[Notification] hidden note" }],
    });
  });

  it("drops the facts before the latest compaction summary but keeps system messages", () => {
    const compacted: AgentMessage[] = [
      system,
      createUserMessage("old", 1),
      reply("old reply"),
      createCompactionSummary("we talked", 900, 5),
      createUserMessage("new", 6),
    ];
    const view = projectModelView(compacted, DEFAULT_CONTEXT_SETTINGS);
    expect(view.fates).toEqual(["sent", "compacted", "compacted", "converted", "sent"]);
    expect(view.messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
    const off = projectModelView(compacted, { ...DEFAULT_CONTEXT_SETTINGS, applyCompaction: false });
    expect(off.fates).not.toContain("compacted");
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
      () => createCompactionSummary("s", 1),
      () => ({ role: "system", content: "later", timestamp: 2 }),
    ];
    for (let round = 0; round < 200; round++) {
      const history = Array.from({ length: 1 + Math.floor(random() * 25) }, () =>
        (makers[Math.floor(random() * makers.length)] as () => AgentMessage)(),
      );
      const settings: ContextSettings = {
        applyCompaction: random() < 0.5,
        policies: {
          notification: random() < 0.5 ? "hidden" : "userText",
          approval_request: random() < 0.5 ? "hidden" : "userText",
          progress: "userText",
        },
      };
      const view = projectModelView(history, settings);
      expect(view.messages).toEqual(
        convertToLlm(transformContext(history, settings.applyCompaction), settings.policies),
      );
      view.messages.forEach((message, index) => {
        const source = view.sourceOf[index] as number;
        expect(view.targetOf[source]).toBe(index);
        if (view.fates[source] === "sent") expect(message).toBe(history[source]);
      });
    }
  });

  it("estimates tokens for both sides", () => {
    const view = projectModelView(
      [createUserMessage("x".repeat(400), 1), createNotification("y".repeat(40))],
      DEFAULT_CONTEXT_SETTINGS,
    );
    expect(view.modelTokens).toBe(100);
    expect(view.factTokens).toBe(110);
  });
});
