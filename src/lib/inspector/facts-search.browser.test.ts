import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { page } from "vitest/browser";
import "../../app.css";
import "./inspector.css";
import { showFactsView } from "./facts-view.test-support.ts";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import { createNotification, createUserMessage } from "../messages/factories.ts";
import type { Workspace } from "../sessions/workspace.svelte.ts";
import { startTestWorkspace } from "../sessions/test-workspace.test-support.ts";

/**
 * Searching the inspector's lists in Chromium while the search reads the rows in slices: each slice
 * finds more matches, and a row in view shows its text again only when what it shows changes.
 */

let workspace: Workspace;
let session: ChatSession;
beforeAll(async () => {
  ({ workspace, session } = await startTestWorkspace());
  // Users' prompts to find, between notifications that do not match.
  for (let index = 0; index < 300; index++)
    await session.inject(
      index % 3 === 0
        ? createUserMessage(`question ${index}`, index + 1)
        : createNotification(`build ${index} finished`, "info", index + 1),
      "append",
    );
});

afterEach(() => {
  vi.restoreAllMocks();
});

const showInspector = () => showFactsView(workspace, session);

/** How many times each element's text was set while `work` ran, by the element. */
async function textSettings(root: Element, work: () => Promise<void>): Promise<Map<Node, number>> {
  const settings = new Map<Node, number>();
  const observer = new MutationObserver((records) => {
    for (const record of records) settings.set(record.target, (settings.get(record.target) ?? 0) + 1);
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  try {
    await work();
    // The last records are delivered after the work's last task.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const record of observer.takeRecords())
      settings.set(record.target, (settings.get(record.target) ?? 0) + 1);
  } finally {
    observer.disconnect();
  }
  return settings;
}

describe("searching the facts", () => {
  it("shows a row's text again only when its match changes, not at every slice of the scan", async () => {
    const { unmount } = await showInspector();
    try {
      const facts = page.getByRole("listbox", { name: "Facts" });
      await expect.element(facts.getByRole("option").first()).toBeVisible();
      const list = facts.element();
      const box = page.getByRole("searchbox", { name: "Search facts" });
      const status = page.getByRole("search", { name: "Search facts" }).getByRole("status");
      /** The most times a row's line was set while the query was typed and every row read. */
      const mostSettings = async (): Promise<number> => {
        const settings = await textSettings(list, async () => {
          await box.fill("question");
          await expect.element(status).toHaveTextContent("100 matches");
        });
        const previews = [...list.querySelectorAll(".preview")];
        expect(previews.length).toBeGreaterThan(5);
        return Math.max(...previews.map((preview) => settings.get(preview) ?? 0));
      };
      // The 300 rows read in one slice.
      const inOneSlice = await mostSettings();
      await box.fill("");
      await expect.element(status).toHaveTextContent("");
      // Each check of the clock ends the slice: the scan reads 64 rows a slice, five slices in all, and
      // each finds more matches.
      let clock = performance.now();
      vi.spyOn(performance, "now").mockImplementation(() => (clock += 100));
      const inFiveSlices = await mostSettings();
      vi.restoreAllMocks();
      // At most once more: when the row is found to match.
      expect(inFiveSlices).toBeLessThanOrEqual(inOneSlice + 1);
    } finally {
      await unmount();
    }
  });
});
