import { describe, expect, it } from "vitest";
import { ToolAnswers } from "./tool-answers.svelte.ts";

const call = { toolCallId: "c1", toolName: "lookup_order", args: { id: 7 } };

describe("ToolAnswers", () => {
  it("keeps a call waiting until its result is typed", async () => {
    const answers = new ToolAnswers();
    const result = answers.ask(call);
    expect(answers.isWaiting("c1")).toBe(true);
    expect(answers.waiting).toEqual([call]);
    expect(answers.answer("other", { text: "x", isError: false })).toBe(false);
    expect(answers.answer("c1", { text: '{"status": "shipped"}', isError: false })).toBe(true);
    await expect(result).resolves.toEqual({ text: '{"status": "shipped"}', isError: false });
    expect(answers.isWaiting("c1")).toBe(false);
    expect(answers.answer("c1", { text: "again", isError: false })).toBe(false);
  });

  it("ends the wait with an error when the run stops", async () => {
    const answers = new ToolAnswers();
    const controller = new AbortController();
    const result = answers.ask(call, controller.signal);
    controller.abort();
    await expect(result).resolves.toMatchObject({ isError: true, text: expect.stringContaining("stopped") });
    expect(answers.isWaiting("c1")).toBe(false);
    const stopped = new AbortController();
    stopped.abort();
    await expect(answers.ask(call, stopped.signal)).resolves.toMatchObject({ isError: true });
    expect(answers.waiting).toEqual([]);
  });
});
