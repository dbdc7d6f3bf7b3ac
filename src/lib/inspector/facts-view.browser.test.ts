import { beforeAll, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import "../../app.css";
import "./inspector.css";
import { showFactsView } from "./facts-view.test-support.ts";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import { createCustomMessage, createNotification, createUserMessage } from "../messages/factories.ts";
import type { Workspace } from "../sessions/workspace.svelte.ts";
import { startTestWorkspace } from "../sessions/test-workspace.test-support.ts";

/**
 * The inspector's first tab in Chromium, on a real session: the facts list and the model view list the
 * session's facts and what convertToLlm makes of them, and selecting a row shows that fact on both sides.
 */

let workspace: Workspace;
let session: ChatSession;
beforeAll(async () => {
  ({ workspace, session } = await startTestWorkspace());
  await session.inject(createUserMessage("What is six times seven?", 1), "append");
  await session.inject(createNotification("the build finished", "info", 2), "append");
  await session.inject(createCustomMessage("calendar", "lunch at noon", true, undefined, 3), "append");
});

const showInspector = () => showFactsView(workspace, session);

describe("the inspector's facts view", () => {
  it("lists every fact with its role and fate, and the model view with each message's source", async () => {
    const { unmount } = await showInspector();
    try {
      const facts = page.getByRole("listbox", { name: "Facts" });
      await expect.element(facts).toBeVisible();
      // The system prompt, the user's question, a notification (hidden by default), a custom message.
      await expect
        .element(facts.getByRole("option", { name: /^Fact 2: user, .*What is six times seven\?/ }))
        .toBeVisible();
      await expect
        .element(facts.getByRole("option", { name: /^Fact 3: notification, hidden by policy\./ }))
        .toBeVisible();
      await expect.element(facts.getByRole("option", { name: /^Fact 4: custom:calendar, / })).toBeVisible();
      expect(facts.getByRole("option").elements()).toHaveLength(4);

      const model = page.getByRole("listbox", { name: "Model messages" });
      await expect
        .element(model.getByRole("option", { name: /^Model message 1: system, from fact 1\./ }))
        .toBeVisible();
      await expect
        .element(model.getByRole("option", { name: /^Model message 2: user, from fact 2\. What is six/ }))
        .toBeVisible();
      // The custom message reaches the model as a user message; the hidden notification does not.
      await expect
        .element(model.getByRole("option", { name: /^Model message 3: user, from fact 4\./ }))
        .toBeVisible();
      expect(model.getByRole("option").elements()).toHaveLength(3);
      await expect.element(page.getByRole("region", { name: "Session facts" })).toHaveTextContent(/4 facts/);
      await expect.element(page.getByRole("region", { name: "Model view" })).toHaveTextContent(/3 messages/);
    } finally {
      await unmount();
    }
  });

  it("shows the selected fact and its model message side by side", async () => {
    const { unmount } = await showInspector();
    try {
      const detail = page.getByRole("region", { name: "Selected fact" });
      await expect.element(detail).toHaveTextContent(/Select a fact or a model message/);
      await userEvent.click(page.getByRole("option", { name: /^Fact 4: custom:calendar/ }));
      await expect.element(detail.getByRole("heading", { name: /^Fact 4/ })).toBeVisible();
      await expect.element(detail.getByLabelText("Fact JSON")).toHaveTextContent(/"customType": "calendar"/);
      await expect.element(detail.getByRole("heading", { name: /^Model message 3/ })).toBeVisible();
      await expect.element(detail.getByLabelText("Model message JSON")).toHaveTextContent(/"role": "user"/);
      await expect.element(detail.getByLabelText("Model message JSON")).toHaveTextContent(/lunch at noon/);
      // The same row is marked selected in both lists.
      await expect
        .element(page.getByRole("option", { name: /^Fact 4: custom:calendar/ }))
        .toHaveAttribute("aria-selected", "true");
      await expect
        .element(page.getByRole("option", { name: /^Model message 3:/ }))
        .toHaveAttribute("aria-selected", "true");
    } finally {
      await unmount();
    }
  });

  it("says why a hidden fact does not reach the model", async () => {
    const { unmount, selection } = await showInspector();
    try {
      selection.selectFact(2);
      const detail = page.getByRole("region", { name: "Selected fact" });
      await expect.element(detail.getByRole("heading", { name: /^Fact 3/ })).toBeVisible();
      await expect.element(detail).toHaveTextContent(/Does not reach the model: hidden by policy\./);
      await expect.element(detail.getByRole("heading", { name: "Model view" })).toBeVisible();
    } finally {
      await unmount();
    }
  });
});
