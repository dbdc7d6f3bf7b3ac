import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CopyFeedback } from "./copy-feedback.svelte.ts";

describe("copy feedback", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("writes the text, says Copied for a moment, then returns to idle", async () => {
    const written: string[] = [];
    const feedback = new CopyFeedback(async (text) => void written.push(text), 1_000);
    await feedback.copy("hello");
    expect(written).toEqual(["hello"]);
    expect(feedback.status).toBe("copied");
    vi.advanceTimersByTime(1_000);
    expect(feedback.status).toBe("idle");
  });

  it("says when the clipboard refused", async () => {
    const feedback = new CopyFeedback(() => Promise.reject(new Error("denied")));
    await feedback.copy("hello");
    expect(feedback.status).toBe("failed");
  });
});
