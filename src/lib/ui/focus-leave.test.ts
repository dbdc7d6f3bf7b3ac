import { describe, expect, it } from "vitest";
import { onFocusLeaving } from "./focus-leave.ts";

/** A holder containing `inside` (and itself), and a focusout event from it towards `to`. */
function focusout(to: object | null): FocusEvent {
  const inside = { name: "a field" };
  const holder = { contains: (node: unknown) => node === inside || node === holder };
  const target = to === INSIDE ? inside : to;
  return { currentTarget: holder, relatedTarget: target } as unknown as FocusEvent;
}
const INSIDE = { name: "inside" };

describe("onFocusLeaving", () => {
  it("leaves when the focus goes outside the holder, or to nothing (a click on the page)", () => {
    let left = 0;
    const handler = onFocusLeaving(() => left++);
    handler(focusout({ name: "another control" }));
    handler(focusout(null));
    expect(left).toBe(2);
  });

  it("stays while the focus moves between the holder's parts", () => {
    let left = 0;
    const handler = onFocusLeaving(() => left++);
    handler(focusout(INSIDE));
    expect(left).toBe(0);
  });
});
