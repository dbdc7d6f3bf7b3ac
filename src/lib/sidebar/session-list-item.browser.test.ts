import { beforeAll, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { Workspace } from "../sessions/workspace.svelte.ts";
import { startTestWorkspace } from "../sessions/test-workspace.test-support.ts";
import PageContexts from "../view-state/PageContexts.test-support.svelte";
import SessionListItem from "./SessionListItem.svelte";
import "../../app.css";

/** A row of the sessions list renamed from the keyboard: the focus never falls to the page. */

let workspace: Workspace;
let session: ChatSession;
beforeAll(async () => {
  ({ workspace, session } = await startTestWorkspace());
});

/** The open session's metadata, as the list has it now. */
function meta(): SessionMeta {
  const found = workspace.list.find(session.id);
  if (!found) throw new Error("The open session is not in the list.");
  return found;
}

/** The open session's row, following its metadata as the list does (a rename changes it). */
async function showRow() {
  return render(PageContexts<Record<string, unknown>>, {
    props: {
      workspace,
      session,
      component: SessionListItem as never,
      props: {
        get meta() {
          return meta();
        },
        current: true,
        now: 0,
      },
    },
  });
}

/** Open the rename field from the row's menu with the keyboard, and type a title into it. */
async function startRenaming(title: string) {
  (page.getByRole("button", { name: /^Actions for / }).element() as HTMLElement).focus();
  await userEvent.keyboard("{Enter}");
  await expect.element(page.getByRole("menuitem", { name: "Rename" })).toHaveFocus();
  await userEvent.keyboard("{Enter}");
  const field = page.getByRole("textbox", { name: "New title" });
  await expect.element(field).toHaveFocus();
  await userEvent.keyboard(title);
  return field;
}

/** The row's own button, named by the session's title (and its message count and age after it). */
const sessionButton = (title: string) =>
  page.getByRole("button", { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });

describe("renaming a session in the list", () => {
  it("gives the focus back to the session's button once Enter has saved the title", async () => {
    const { unmount } = await showRow();
    try {
      const field = await startRenaming("Renamed with Enter");
      await userEvent.keyboard("{Enter}");
      await expect.element(field).not.toBeInTheDocument();
      await expect.element(sessionButton("Renamed with Enter")).toHaveFocus();
    } finally {
      await unmount();
    }
  });

  it("gives the focus back after Save and after Cancel, pressed from the keyboard", async () => {
    const { unmount } = await showRow();
    try {
      await startRenaming("Saved with the button");
      await userEvent.keyboard("{Tab}");
      await expect.element(page.getByRole("button", { name: "Save" })).toHaveFocus();
      await userEvent.keyboard("{Enter}");
      await expect.element(sessionButton("Saved with the button")).toHaveFocus();

      await startRenaming("Never saved");
      await userEvent.keyboard("{Tab}{Tab}");
      await expect.element(page.getByRole("button", { name: "Cancel" })).toHaveFocus();
      await userEvent.keyboard("{Enter}");
      await expect.element(sessionButton("Saved with the button")).toHaveFocus();
      expect(meta().title).toBe("Saved with the button");
    } finally {
      await unmount();
    }
  });

  it("cancels with Escape: the old title stays, and the focus goes back to the session's button", async () => {
    const { unmount } = await showRow();
    try {
      const before = meta().title;
      const field = await startRenaming("Thrown away");
      await userEvent.keyboard("{Escape}");
      await expect.element(field).not.toBeInTheDocument();
      await expect.element(sessionButton(before)).toHaveFocus();
      expect(meta().title).toBe(before);
    } finally {
      await unmount();
    }
  });
});
