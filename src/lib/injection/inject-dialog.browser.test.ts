import { describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import { startTestWorkspace } from "../sessions/test-workspace.test-support.ts";
import PageContexts from "../view-state/PageContexts.test-support.svelte";
import InjectDialog from "./InjectDialog.svelte";

/**
 * The injection dialog in Chromium, on a real session (a new one per test, so no draft carries over):
 * where it opens, what it says about a message that is not valid, and what it injects.
 */

async function openDialog() {
  const { workspace, session } = await startTestWorkspace();
  const onclose = vi.fn();
  const rendered = await render(PageContexts<Record<string, unknown>>, {
    props: { workspace, session, component: InjectDialog as never, props: { session, open: true, onclose } },
  });
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await expect.element(dialog).toBeVisible();
  return { session, onclose, dialog, ...rendered };
}

describe("the injection dialog", () => {
  it("opens on the message's first field, never on Clear draft", async () => {
    const { dialog, unmount } = await openDialog();
    try {
      await expect.element(dialog.getByLabelText("Text", { exact: true })).toHaveFocus();
      await expect.element(dialog.getByRole("button", { name: "Clear draft" })).not.toHaveFocus();
    } finally {
      await unmount();
    }
  });

  it("says what is wrong with a message that is not valid, and does not offer to inject it", async () => {
    const { dialog, session, unmount } = await openDialog();
    try {
      const text = dialog.getByLabelText("Text", { exact: true });
      await userEvent.fill(text, "x");
      await userEvent.clear(text);
      await expect.element(dialog.getByRole("alert")).toHaveTextContent("Text is required.");
      await expect.element(text).toHaveAttribute("aria-invalid", "true");
      await expect.element(dialog.getByRole("button", { name: /^Inject:/ })).toBeDisabled();

      // The JSON tab says what is wrong with what it holds, too.
      await userEvent.click(dialog.getByRole("tab", { name: "JSON" }));
      const json = dialog.getByLabelText("Whole message as JSON");
      await userEvent.fill(json, '{"role": "notification", "text": 3}');
      await expect.element(dialog.getByRole("alert")).toHaveTextContent(/text/);
      await expect.element(json).toHaveAttribute("aria-invalid", "true");
      await expect.element(dialog.getByRole("button", { name: /^Inject:/ })).toBeDisabled();
      expect(session.facts.map((fact) => fact.role)).toEqual(["system"]);
    } finally {
      await unmount();
    }
  });

  it("injects a valid draft the way chosen, shows what the model will see, and closes", async () => {
    const { dialog, session, onclose, unmount } = await openDialog();
    try {
      await userEvent.fill(dialog.getByLabelText("Text", { exact: true }), "Deploy finished");
      await userEvent.selectOptions(dialog.getByLabelText("Level", { exact: true }), "warning");
      // Notifications are hidden from the model by default: the dialog says so before injecting.
      await expect
        .element(dialog.getByRole("region", { name: "What the model will see" }))
        .toHaveTextContent(/Hidden/);
      await expect.element(dialog.getByRole("alert")).not.toBeInTheDocument();
      await expect.element(dialog.getByRole("radio", { name: "Append now" })).toBeChecked();
      await userEvent.click(dialog.getByRole("button", { name: "Inject: append now" }));
      await vi.waitFor(() => expect(session.facts).toHaveLength(2));
      expect(session.facts[1]).toMatchObject({
        role: "notification",
        text: "Deploy finished",
        level: "warning",
      });
      expect(onclose).toHaveBeenCalled();
    } finally {
      await unmount();
    }
  });
});
