import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/session-settings.ts";
import { changesOf, seedForm, type ReplayBaseline } from "./replay-form.ts";

const baseline: ReplayBaseline = {
  settings: { ...defaultSettings(), sampling: { temperature: 0.5 } },
  systemPrompt: "Be kind.",
  tools: [
    { name: "calculate", enabled: true },
    { name: "lookup", enabled: false },
  ],
};

describe("the replay form", () => {
  it("starts as the session is, which changes nothing", () => {
    expect(changesOf(seedForm(baseline), baseline)).toEqual({ ok: true, changes: {} });
  });

  it("keeps only what differs from the session", () => {
    const form = seedForm(baseline);
    form.policies.notification = "userText";
    form.model = "mirror/mirror-thinking";
    form.thinkingLevel = "high";
    form.systemPrompt = "Be brief.";
    form.sampling = { maxTokens: 100 };
    form.tools = { calculate: false, lookup: true };
    form.omit = ["e1"];
    expect(changesOf(form, baseline)).toEqual({
      ok: true,
      changes: {
        policies: { notification: "userText" },
        model: { provider: "mirror", id: "mirror-thinking" },
        thinkingLevel: "high",
        systemPrompt: "Be brief.",
        sampling: { maxTokens: 100 },
        tools: ["lookup"],
        omit: ["e1"],
      },
    });
  });

  it("changes the sampling only when a value differs, parameters included", () => {
    const form = seedForm(baseline);
    form.sampling = { temperature: 0.5 };
    expect(changesOf(form, baseline)).toEqual({ ok: true, changes: {} });
    form.sampling = { temperature: 0.5, params: { top_p: 0.9 } };
    expect(changesOf(form, baseline)).toEqual({
      ok: true,
      changes: { sampling: { temperature: 0.5, params: { top_p: 0.9 } } },
    });
  });

  it("names the model when it is not provider/id", () => {
    const form = { ...seedForm(baseline), model: "mirror" };
    const result = changesOf(form, baseline);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.field)).toEqual(["model"]);
    expect(result.problems[0]?.message).toContain("provider/id");
  });
});
