import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { createCompactionSummary } from "../messages/factories.ts";
import { DEFAULT_CONTEXT_SETTINGS } from "../messages/policies.ts";
import { projectFacts } from "../model-view/project.ts";
import { replyOf, testModel } from "../model-view/provider-fixtures.test-support.ts";
import { providerView } from "../model-view/provider-view.ts";
import { compactionCopyOf, fateLabel, providerDropOf } from "./fate.ts";

describe("fateLabel", () => {
  it("says a fact the model has not seen yet is not yet sent", () => {
    expect(fateLabel("sent", false)).toEqual({ text: "not yet sent (as-is)", tone: "pending" });
    expect(fateLabel("converted", false)).toEqual({ text: "not yet sent (→ user)", tone: "pending" });
  });

  it("names every other fate whether or not a request has happened since", () => {
    expect(fateLabel("sent", true).text).toBe("sent as-is");
    expect(fateLabel("converted", true).text).toBe("converted → user");
    for (const seen of [true, false]) {
      expect(fateLabel("hidden", seen).text).toBe("hidden by policy");
      expect(fateLabel("excluded", seen).text).toBe("excluded (!!)");
      expect(fateLabel("compacted", seen).text).toBe("dropped by compaction");
      expect(fateLabel("carried", seen).text).toBe("sent as the compaction's copy");
    }
  });
});

describe("what the inspector says a fact's model message becomes", () => {
  const model = testModel("openai-completions", "openai", "gpt-4o-mini");
  const facts: AgentMessage[] = [
    { role: "user", content: "hi", timestamp: 1 },
    { ...replyOf(model, [], 2), stopReason: "aborted" },
  ];
  const view = projectFacts(facts, DEFAULT_CONTEXT_SETTINGS);

  it("names the provider transform's drop of a fact's model message, and nothing for one it keeps", () => {
    const provider = providerView(view.messages, model);
    expect(providerDropOf(view, provider, 1)).toBe("dropped: aborted");
    expect(providerDropOf(view, provider, 0)).toBeUndefined();
    // Not known before the provider view is computed.
    expect(providerDropOf(view, undefined, 1)).toBeUndefined();
  });

  it("finds the system prompt a compaction recorded, and the compaction it came from", () => {
    const summary = createCompactionSummary("Earlier: hi.", 100, 3);
    const copy: Message = { role: "system", content: "You are terse.", timestamp: 3 };
    const compacted = {
      messages: [copy, { role: "user", content: "summary", timestamp: 3 }] as Message[],
      sourceOf: Int32Array.from([2, 2]),
    };
    expect(compactionCopyOf(compacted, [...facts, summary])).toEqual({ fact: 2, model: 0 });
    expect(compactionCopyOf(view, facts)).toBeUndefined();
  });
});
