import type { Message } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import type { CallRecord } from "../storage/records.ts";
import CallDiff from "./CallDiff.svelte";

/**
 * A call's Diff tab in Chromium: against the call before it, a changed message opens to show what changed
 * in it word by word, and the two provider payloads open as a line diff.
 */

const previous = { seq: 0 } as CallRecord;
const system: Message = { role: "system", content: "You are terse.", timestamp: 0 };
const asked = (status: string): Message => ({
  role: "user",
  content: `[Approval request: Deploy to production] status: ${status}`,
  timestamp: 1,
});
const question: Message = { role: "user", content: "Is it out?", timestamp: 2 };

describe("the call diff", () => {
  it("shows inside a changed message the words that changed, and the payloads line by line", async () => {
    const { unmount } = await render(CallDiff, {
      previous,
      previousMessages: [system, asked("pending")],
      messages: [system, asked("approved"), question],
      previousPayload: { model: "m", messages: [{ role: "user", content: "pending" }] },
      payload: { model: "m", messages: [{ role: "user", content: "approved" }] },
    });
    try {
      await expect.element(page.getByText(/1 unchanged · 1 added · 0\s+removed · 1 changed/)).toBeVisible();
      // Closed until asked: nothing is worked out for changes nobody opens.
      expect(page.getByRole("region", { name: "What changed in message 2" }).elements()).toHaveLength(0);
      await page.getByText(/#2 .*Deploy to production/).click();
      const change = page.getByLabelText("What changed in message 2");
      await expect.element(change).toBeVisible();
      expect(change.element().querySelector("del")?.textContent).toBe("pending");
      expect(change.element().querySelector("ins")?.textContent).toBe("approved");

      await page.getByText(/Provider payload against call #1, line by line/).click();
      const payload = page.getByLabelText("Payload diff");
      await expect.element(payload).toBeVisible();
      expect(payload.element().querySelector("del")?.textContent).toContain('"content": "pending"');
      expect(payload.element().querySelector("ins")?.textContent).toContain('"content": "approved"');
    } finally {
      await unmount();
    }
  });

  it("says why payloads cannot be compared when one was not kept", async () => {
    const { unmount } = await render(CallDiff, {
      previous,
      previousMessages: [system],
      messages: [system],
      payload: { model: "m" },
    });
    try {
      await page.getByText(/line by line/).click();
      await expect
        .element(page.getByText("One of the two payloads was not kept whole, so they cannot be compared."))
        .toBeVisible();
    } finally {
      await unmount();
    }
  });
});
