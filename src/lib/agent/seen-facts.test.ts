import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { seenFactCount } from "./seen-facts.ts";

const modelReply = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "openai-completions",
  provider: "mirror",
  model: "mirror",
  usage: zeroUsage(),
  stopReason: "stop",
  timestamp: 1,
});

describe("seenFactCount", () => {
  const asked = createUserMessage("question", 1);
  const facts: AgentMessage[] = [asked, modelReply("answer"), createUserMessage("not sent yet", 2)];

  it("counts everything up to the latest model reply, as after a reload", () => {
    expect(seenFactCount(facts)).toBe(2);
    expect(seenFactCount([asked])).toBe(0);
  });

  it("does not count a reply written by hand as one the model produced", () => {
    expect(seenFactCount([...facts, createInjectedAssistantMessage("by hand", 3)])).toBe(2);
  });

  it("counts what the last request of this tab carried when that is more", () => {
    expect(seenFactCount(facts, 3)).toBe(3);
    expect(seenFactCount(facts, 1)).toBe(2);
  });
});
