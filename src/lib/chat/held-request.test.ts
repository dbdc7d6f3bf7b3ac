import { describe, expect, it } from "vitest";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import { DEFAULT_POLICIES } from "../messages/policies.ts";
import { heldRequest } from "./held-request.ts";

describe("the request a held call will carry", () => {
  const before = [createUserMessage("hello")];

  it("is the model view, then the first steer, which joins it; later steers wait for their own call", () => {
    const steer = createUserMessage("be brief");
    const request = heldRequest(before, [steer, createUserMessage("later")], 1, DEFAULT_POLICIES);
    expect(request.items).toEqual([
      { message: before[0], joining: false },
      { message: steer, joining: true },
    ]);
    expect(request.joiningUnsent).toEqual([]);
  });

  it("takes every steer when the Agent delivers them all at once, each as the model reads it", () => {
    const notice = createNotification("deploy done", "info");
    const visible = heldRequest(before, [notice, createUserMessage("and?")], Infinity, {
      ...DEFAULT_POLICIES,
      notification: "userText",
    });
    expect(visible.items.map((item) => item.joining)).toEqual([false, true, true]);
    expect(visible.items[1]?.message).toMatchObject({
      role: "user",
      content: [{ text: "[Notification] deploy done" }],
    });
    // Hidden by policy: it joins the facts, not the request.
    const hidden = heldRequest(before, [notice], 1, { ...DEFAULT_POLICIES, notification: "hidden" });
    expect(hidden.items).toHaveLength(1);
    expect(hidden.joiningUnsent).toEqual([notice]);
  });
});
