import { describe, expect, it } from "vitest";
import type { LiveAsk } from "../../shared/live/live-protocol.ts";
import { initialValues } from "./forms.ts";
import { askDeadline, gateDeadline, liveDeliveries, liveInjection } from "./live-injection.ts";

const form = (values: Record<string, string | boolean>) => ({ ...initialValues("custom"), ...values });

describe("a message for a live pi", () => {
  it("is the custom-message form's message, as pi's sendMessage takes it", () => {
    expect(liveInjection(form({ customType: "notification", content: "The deploy finished." }))).toEqual({
      ok: true,
      injection: { customType: "notification", content: "The deploy finished.", display: true },
    });
    expect(
      liveInjection(form({ customType: "ticket", content: "PROJ-1", display: false, details: '{"id":1}' })),
    ).toEqual({
      ok: true,
      injection: { customType: "ticket", content: "PROJ-1", display: false, details: { id: 1 } },
    });
  });

  it("is refused field by field with the injection dialog's words", () => {
    const result = liveInjection(form({ customType: " ", content: "", details: "{nope" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => error.field).sort()).toEqual(["content", "customType", "details"]);
    expect(result.errors.find((error) => error.field === "content")?.message).toBe("Content is required.");
  });
});

describe("delivery to a live pi", () => {
  it("offers pi's three ways, and says that an idle pi runs a turn with a steer or follow-up", () => {
    expect(liveDeliveries(true).map((option) => [option.value, option.label])).toEqual([
      ["steer", "Steer"],
      ["followUp", "Follow-up"],
      ["nextTurn", "Next turn"],
    ]);
    const idle = liveDeliveries(false);
    expect(idle.find((option) => option.value === "followUp")?.explain).toMatch(/idle.*runs a turn/);
    expect(idle.find((option) => option.value === "nextTurn")?.explain).toMatch(/next prompt/);
    expect(liveDeliveries(true).find((option) => option.value === "steer")?.explain).toMatch(
      /before the next model call/,
    );
  });
});

describe("what pi does when nobody answers", () => {
  const tool: LiveAsk = { kind: "tool", id: "t", toolName: "bash", args: {}, askedAt: 1, timeoutMs: 300_000 };
  it("names the wait and the consequence for each kind of question", () => {
    expect(askDeadline(tool)).toMatch(/\(5 min\); then it blocks the tool call and tells the model so\.$/);
    expect(
      askDeadline({
        kind: "call",
        id: "c",
        provider: "p",
        modelId: "m",
        payload: { kept: "none", bytes: 0, reason: "x" },
        askedAt: 1,
        timeoutMs: 45_000,
      }),
    ).toMatch(/\(45 s\); then it cancels the call and ends the run\.$/);
    expect(gateDeadline("tools", 90_000)).toBe(
      "pi waits 90 s for an answer; then it blocks the tool call and tells the model so.",
    );
    expect(gateDeadline("calls", 600_000)).toBe(
      "pi waits 10 min for Continue; then it cancels the call and ends the run.",
    );
  });
});
