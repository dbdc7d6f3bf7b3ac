import { describe, expect, it } from "vitest";
import { FocusTargets } from "./focus-targets.ts";

function fakeElement() {
  const element = {
    isConnected: true,
    focused: 0,
    focus() {
      element.focused++;
    },
  };
  return element;
}

type Fake = ReturnType<typeof fakeElement>;
const mount = (targets: FocusTargets, name: "composer" | "facts", element: Fake) =>
  targets.register(name)(element as unknown as HTMLElement);

describe("focus targets", () => {
  it("focus a registered element at once", () => {
    const targets = new FocusTargets();
    const composer = fakeElement();
    mount(targets, "composer", composer);
    targets.focus("composer");
    expect(composer.focused).toBe(1);
  });

  it("focus a target that is not on screen yet as soon as it registers", async () => {
    const targets = new FocusTargets();
    targets.focus("facts");
    const facts = fakeElement();
    mount(targets, "facts", facts);
    await Promise.resolve();
    expect(facts.focused).toBe(1);
  });

  it("forget an element once it unmounts, and wait for the next one", async () => {
    const targets = new FocusTargets();
    const old = fakeElement();
    const unmount = mount(targets, "composer", old);
    if (typeof unmount === "function") unmount();
    targets.focus("composer");
    expect(old.focused).toBe(0);
    const next = fakeElement();
    mount(targets, "composer", next);
    await Promise.resolve();
    expect(next.focused).toBe(1);
  });

  it("focus the next element to register under a name, not the one there now", async () => {
    const targets = new FocusTargets();
    const current = fakeElement();
    const unmount = mount(targets, "composer", current);
    targets.focusNext("composer");
    expect(current.focused).toBe(0);
    if (typeof unmount === "function") unmount();
    const next = fakeElement();
    mount(targets, "composer", next);
    await Promise.resolve();
    expect([current.focused, next.focused]).toEqual([0, 1]);
  });

  it("run the search its owner offers, and find nothing once it is withdrawn or when none is offered", async () => {
    const targets = new FocusTargets();
    expect(await targets.seek("approval")).toBe(false);
    let searched = 0;
    const withdraw = targets.provide("approval", () => Promise.resolve(++searched > 0));
    expect(await targets.seek("approval")).toBe(true);
    expect(searched).toBe(1);
    withdraw();
    expect(await targets.seek("approval")).toBe(false);
    expect(searched).toBe(1);
  });
});
