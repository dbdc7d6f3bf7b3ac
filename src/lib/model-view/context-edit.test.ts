import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { contextEditChoices, editableText } from "./context-edit.ts";

const reply = (content: Extract<AgentMessage, { role: "assistant" }>["content"]): AgentMessage => ({
  role: "assistant",
  content,
  api: "mirror",
  provider: "mirror",
  model: "mirror",
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp: 1,
});

describe("context edits a person can make", () => {
  it("edits text content only: a string, or text parts joined by blank lines", () => {
    expect(editableText({ role: "user", content: "plain", timestamp: 1 })).toBe("plain");
    expect(
      editableText(
        reply([
          { type: "text", text: "one" },
          { type: "text", text: "two" },
        ]),
      ),
    ).toBe("one\n\ntwo");
    expect(
      editableText(reply([{ type: "toolCall", id: "c", name: "calculate", arguments: {} }])),
    ).toBeUndefined();
    expect(editableText(reply([{ type: "thinking", thinking: "hm" }]))).toBeUndefined();
    expect(editableText(createNotification("hello"))).toBeUndefined();
  });

  it("offers edit and omit for a fact the model reads, and restore once it is edited or omitted", () => {
    const user = createUserMessage("hello", 1);
    expect(contextEditChoices(user, "sent")).toEqual({ edit: true, omit: true, restore: false });
    expect(contextEditChoices(user, "edited")).toEqual({ edit: true, omit: true, restore: true });
    expect(contextEditChoices(user, "omitted")).toEqual({ edit: true, omit: false, restore: true });
  });

  it("offers nothing for facts an edit cannot reach: compacted, failed attempts, system and custom types", () => {
    const user = createUserMessage("hello", 1);
    const none = { edit: false, omit: false, restore: false };
    expect(contextEditChoices(user, "compacted")).toEqual(none);
    expect(contextEditChoices(reply([{ type: "text", text: "x" }]), "failedAttempt")).toEqual(none);
    expect(contextEditChoices({ role: "system", content: "prompt", timestamp: 1 }, "sent")).toEqual(none);
    expect(contextEditChoices(createNotification("hello"), "converted")).toEqual(none);
  });

  it("can leave out a reply with tool calls, but not rewrite it as text", () => {
    const calls = reply([{ type: "toolCall", id: "c", name: "calculate", arguments: {} }]);
    expect(contextEditChoices(calls, "sent")).toEqual({ edit: false, omit: true, restore: false });
  });
});
