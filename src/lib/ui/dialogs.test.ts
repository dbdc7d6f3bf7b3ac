import { describe, expect, it } from "vitest";
import { Dialogs } from "./dialogs.svelte.ts";
import { FocusTargets } from "./focus-targets.ts";

function focusable() {
  const element = { isConnected: true, focused: 0, focus: () => void element.focused++ };
  return element;
}

describe("dialogs", () => {
  it("open one at a time and give focus back to where it was", async () => {
    const trigger = focusable();
    const dialogs = new Dialogs(new FocusTargets(), () => trigger);
    dialogs.open("inject");
    expect(dialogs.isOpen("inject")).toBe(true);
    expect(dialogs.isOpen("shortcuts")).toBe(false);
    dialogs.close("inject");
    expect(dialogs.isOpen("inject")).toBe(false);
    await Promise.resolve();
    expect(trigger.focused).toBe(1);
  });

  it("fall back to the composer when the element that had focus is gone", async () => {
    const gone = { ...focusable(), isConnected: false };
    const targets = new FocusTargets();
    const composer = focusable();
    targets.register("composer")(composer as unknown as HTMLElement);
    const dialogs = new Dialogs(targets, () => gone);
    dialogs.open("shortcuts");
    dialogs.close("shortcuts");
    await Promise.resolve();
    expect(gone.focused).toBe(0);
    expect(composer.focused).toBe(1);
  });
});
