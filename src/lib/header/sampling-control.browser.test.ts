import { beforeAll, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import type { Workspace } from "../sessions/workspace.svelte.ts";
import { startTestWorkspace } from "../sessions/test-workspace.test-support.ts";
import PageContexts from "../view-state/PageContexts.test-support.svelte";
import SamplingControl from "./SamplingControl.svelte";
import "../../app.css";

/** The header's sampling popover from the keyboard: the focus goes in, and Escape brings it back. */

let workspace: Workspace;
let session: ChatSession;
beforeAll(async () => {
  ({ workspace, session } = await startTestWorkspace());
});

/** The control rendered, its popover opened from the keyboard; the popover has the focus. */
async function openFromKeyboard() {
  const { unmount } = await render(PageContexts<Record<string, unknown>>, {
    props: { workspace, session, component: SamplingControl as never, props: { session } },
  });
  const trigger = page.getByRole("button", { name: /^Sampling:/ });
  (trigger.element() as HTMLElement).focus();
  await userEvent.keyboard("{Enter}");
  const dialog = page.getByRole("dialog", { name: "Sampling" });
  await expect.element(dialog).toHaveFocus();
  return { trigger, dialog, unmount };
}

describe("the sampling popover", () => {
  it("takes the focus when it opens, and Escape closes it and gives the focus back to its button", async () => {
    const { trigger, dialog, unmount } = await openFromKeyboard();
    try {
      // Tab moves on to its fields; Escape from a field closes it too.
      await userEvent.keyboard("{Tab}");
      expect(dialog.element().contains(document.activeElement)).toBe(true);
      expect(document.activeElement).not.toBe(dialog.element());
      await userEvent.keyboard("{Escape}");
      await expect.element(dialog).not.toBeInTheDocument();
      await expect.element(trigger).toHaveFocus();
      await expect.element(trigger).toHaveAttribute("aria-expanded", "false");
    } finally {
      await unmount();
    }
  });

  it("closes when the focus leaves it and its button, and stays open while the focus is in either", async () => {
    const outside = document.createElement("button");
    outside.textContent = "Elsewhere";
    document.body.append(outside);
    const { trigger, dialog, unmount } = await openFromKeyboard();
    try {
      // Back to its button: still open.
      await userEvent.keyboard("{Shift>}{Tab}{/Shift}");
      await expect.element(trigger).toHaveFocus();
      await expect.element(dialog).toBeInTheDocument();
      // In again, and past its last button: the focus is elsewhere, and the popover has closed.
      await userEvent.keyboard("{Tab}");
      const done = page.getByRole("button", { name: "Done" });
      for (let presses = 0; presses < 40 && document.activeElement !== done.element(); presses++)
        await userEvent.keyboard("{Tab}");
      await expect.element(done).toHaveFocus();
      await userEvent.keyboard("{Tab}");
      await expect.element(dialog).not.toBeInTheDocument();
      await expect.element(trigger).toHaveAttribute("aria-expanded", "false");
    } finally {
      outside.remove();
      await unmount();
    }
  });
});
