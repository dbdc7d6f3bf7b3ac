import { describe, expect, it } from "vitest";
import { render } from "vitest-browser-svelte";
import "../../app.css";
import PlainText from "./PlainText.svelte";

/**
 * A long text in Chromium, shown in pieces the browser skips while out of view: a skipped piece stands in
 * with an estimated height, and scrolling to anything below it goes by that height. The estimate must
 * follow the width the text has, on a phone as in a wide column.
 */

const PROSE = "lorem ipsum dolor sit amet, consectetur adipiscing elit ";

async function frames(count: number): Promise<void> {
  for (let frame = 0; frame < count; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

describe("PlainText in pieces", () => {
  for (const width of [300, 800]) {
    it(`gives a piece out of view about its real height, ${width} px wide`, async () => {
      const scroller = document.createElement("div");
      scroller.style.cssText = `width: ${width}px; height: 400px; overflow-y: auto;`;
      document.body.append(scroller);
      const { unmount } = await render(PlainText, { target: scroller, props: { text: PROSE.repeat(800) } });
      const text = scroller.querySelector<HTMLElement>(".plain-text");
      expect(text?.querySelectorAll(".piece").length).toBeGreaterThan(3);
      // The line length is worked out once its code has loaded (it is not in the initial JS).
      await expect.poll(() => text?.style.getPropertyValue("--line-chars")).not.toBe("");
      await frames(2);
      const estimated = scroller.scrollHeight;
      // Every piece laid out: the height the estimate stood in for.
      for (const piece of scroller.querySelectorAll<HTMLElement>(".piece"))
        piece.style.contentVisibility = "visible";
      await frames(2);
      const real = scroller.scrollHeight;
      expect(estimated / real).toBeGreaterThan(0.85);
      expect(estimated / real).toBeLessThan(1.15);
      await unmount();
      scroller.remove();
    });
  }
});
