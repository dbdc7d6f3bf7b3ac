import { describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import LateMenu from "./LateMenu.test-support.svelte";

/** A menu opened from the keyboard before its items have loaded (the examples' menu on a slow machine). */

function deferred(): { promise: Promise<string[]>; resolve: (names: string[]) => void } {
  let resolve!: (names: string[]) => void;
  const promise = new Promise<string[]>((done) => (resolve = done));
  return { promise, resolve };
}

/** The menu rendered with items not loaded yet, and opened with Enter from its focused button. */
async function openFromKeyboard() {
  const late = deferred();
  const { unmount } = await render(LateMenu, { names: late.promise });
  const trigger = page.getByRole("button", { name: "Late menu" });
  (trigger.element() as HTMLElement).focus();
  await userEvent.keyboard("{Enter}");
  return { late, unmount, trigger };
}

describe("a menu whose items load after it opens", () => {
  it("gives its first item the focus when the items come, and the arrow keys work before", async () => {
    const { late, unmount, trigger } = await openFromKeyboard();
    try {
      const menu = page.getByRole("menu", { name: "Late menu" });
      await expect.element(menu).toBeVisible();
      // Nothing to focus yet: the menu holds the focus, so the keys go to it rather than the page.
      await expect.element(menu).toHaveFocus();
      late.resolve(["First", "Second"]);
      await expect.element(page.getByRole("menuitem", { name: "First" })).toHaveFocus();
      await userEvent.keyboard("{ArrowDown}");
      await expect.element(page.getByRole("menuitem", { name: "Second" })).toHaveFocus();
      await userEvent.keyboard("{Escape}");
      await expect.element(trigger).toHaveFocus();
    } finally {
      await unmount();
    }
  });

  it("leaves the focus where the reader moved it before the items came", async () => {
    const { late, unmount } = await openFromKeyboard();
    try {
      await expect.element(page.getByRole("menu", { name: "Late menu" })).toHaveFocus();
      // The menu is kept open (it closes on focus leaving only towards outside its own root): focus moved away.
      const elsewhere = page.getByRole("button", { name: "Elsewhere" });
      (elsewhere.element() as HTMLElement).focus();
      late.resolve(["First"]);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await expect.element(elsewhere).toHaveFocus();
    } finally {
      await unmount();
    }
  });
});
