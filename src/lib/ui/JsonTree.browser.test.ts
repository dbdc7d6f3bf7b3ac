import { describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import JsonTree from "./JsonTree.svelte";
import type { JsonValue } from "./json-tree.ts";

/**
 * The JSON tree in Chromium: folding by keyboard as a tree does, a search stepping through its matches and
 * opening what hides them, and the selected node's path copied through the redaction it is given.
 */

const payload: JsonValue = {
  model: "mirror",
  messages: [
    { role: "user", content: [{ type: "text", text: "Find the needle" }] },
    { role: "assistant", content: [{ type: "text", text: "A needle, found" }] },
  ],
  headers: { "x-api-key": "sk-secret-value" },
};

function treeItem(name: RegExp) {
  return page.getByRole("treeitem", { name });
}

describe("the JSON tree", () => {
  it("folds and unfolds by keyboard", async () => {
    const { unmount } = await render(JsonTree, {
      value: payload,
      label: "Payload",
      redact: async (text) => text,
    });
    try {
      const tree = page.getByRole("tree", { name: "Payload" });
      await expect.element(tree).toBeVisible();
      // Two levels open: the messages are listed, folded, with a summary.
      const messages = treeItem(/^messages:/);
      await expect.element(messages).toHaveAttribute("aria-expanded", "true");
      await expect.element(treeItem(/^0:\s*\{…\} 2 keys/)).toHaveAttribute("aria-expanded", "false");

      await treeItem(/^model:/).click();
      await userEvent.keyboard("{ArrowDown}");
      await expect.element(messages).toHaveFocus();
      await userEvent.keyboard("{ArrowLeft}");
      await expect.element(messages).toHaveAttribute("aria-expanded", "false");
      await expect.element(messages).toHaveTextContent("[…] 2 items");
      expect(treeItem(/^0:/).elements()).toHaveLength(0);
      await userEvent.keyboard("{ArrowRight}");
      await expect.element(messages).toHaveAttribute("aria-expanded", "true");
      await userEvent.keyboard("{ArrowRight}");
      const first = treeItem(/^0:/);
      await expect.element(first).toHaveFocus();
      await userEvent.keyboard("{Enter}");
      await expect.element(treeItem(/^0:/)).toHaveAttribute("aria-expanded", "true");
      await expect.element(treeItem(/^role:\s*"user"/)).toBeVisible();
      // Left on an open node closes it; Left again goes to its parent.
      await userEvent.keyboard("{ArrowLeft}");
      await expect.element(treeItem(/^0:/)).toHaveAttribute("aria-expanded", "false");
      await userEvent.keyboard("{ArrowLeft}");
      await expect.element(messages).toHaveFocus();

      await page.getByRole("button", { name: "Collapse all" }).click();
      expect(page.getByRole("treeitem").elements()).toHaveLength(4);
      await page.getByRole("button", { name: "Expand all" }).click();
      await expect.element(treeItem(/^text:\s*"A needle, found"/)).toBeVisible();
    } finally {
      await unmount();
    }
  });

  it("steps through the matches of a search, opening folded nodes, and clears on Escape", async () => {
    const { unmount } = await render(JsonTree, {
      value: payload,
      label: "Payload",
      redact: async (text) => text,
    });
    try {
      const search = page.getByRole("searchbox", { name: "Search Payload" });
      await search.fill("needle");
      const status = page.getByRole("status");
      await expect.element(status).toHaveTextContent("1 of 2");
      // The first match was folded inside messages[0]: it is opened and marked as the current one.
      const first = treeItem(/^text:\s*"Find the needle"/);
      await expect.element(first).toBeVisible();
      await expect.element(first).toHaveAttribute("aria-selected", "true");
      expect(first.element().querySelector("mark")?.textContent).toBe("needle");
      await expect.element(page.getByText("messages[0].content[0].text", { exact: true })).toBeVisible();

      await userEvent.keyboard("{Enter}");
      await expect.element(status).toHaveTextContent("2 of 2");
      await expect.element(treeItem(/^text:\s*"A needle, found"/)).toHaveAttribute("aria-selected", "true");
      await userEvent.keyboard("{Shift>}{Enter}{/Shift}");
      await expect.element(status).toHaveTextContent("1 of 2");
      await page.getByRole("button", { name: "Previous match" }).click();
      await expect.element(status).toHaveTextContent("2 of 2");
      await page.getByRole("button", { name: "Next match" }).click();
      await expect.element(status).toHaveTextContent("1 of 2");

      await search.fill("nothing like it");
      await expect.element(status).toHaveTextContent("No matches");
      await search.fill("needle");
      await search.click();
      await userEvent.keyboard("{Escape}");
      await expect.element(search).toHaveValue("");
      expect(document.querySelectorAll("mark")).toHaveLength(0);
    } finally {
      await unmount();
    }
  });

  it("copies the selected node's path, through the redaction it is given", async () => {
    const redacted: string[] = [];
    const redact = async (text: string) => {
      redacted.push(text);
      return text.replaceAll("sk-secret-value", "[redacted]");
    };
    const { unmount } = await render(JsonTree, { value: payload, label: "Payload", redact });
    try {
      await treeItem(/^x-api-key:/).click();
      await expect.element(page.getByText('headers["x-api-key"]', { exact: true })).toBeVisible();
      await page.getByRole("button", { name: "Copy path" }).click();
      await expect.element(page.getByRole("button", { name: "Copy path: copied" })).toBeVisible();
      await page.getByRole("button", { name: "Copy value" }).click();
      await expect.element(page.getByRole("button", { name: "Copy value: copied" })).toBeVisible();
      expect(redacted).toEqual(['headers["x-api-key"]', '"sk-secret-value"']);
    } finally {
      await unmount();
    }
  });
});
