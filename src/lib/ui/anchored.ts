import type { Attachment } from "svelte/attachments";
import { placePopover } from "./placement.ts";

export interface AnchorOptions {
  /** The element the popover belongs to; it is placed next to it. */
  trigger: HTMLElement | undefined;
  align: "start" | "end";
  /** A press outside both popover and trigger: the owner closes the popover. */
  onDismiss: () => void;
}

/**
 * Shows an element with a `popover="manual"` attribute in the top layer, next to its trigger, so no
 * scrolling or clipping container (a sidebar, a panel) can cut it off. It follows the trigger when the
 * page scrolls or resizes, and asks its owner to close on a press outside.
 */
export function anchoredTo(options: AnchorOptions): Attachment<HTMLElement> {
  return (popover) => {
    const { trigger, align, onDismiss } = options;
    if (!trigger) return;
    popover.showPopover();

    const place = () => {
      // Measured without a previous cap, so a popover that fits is never squeezed.
      popover.style.maxHeight = "";
      const { top, left, maxHeight } = placePopover(
        trigger.getBoundingClientRect(),
        { width: popover.offsetWidth, height: popover.offsetHeight },
        { width: document.documentElement.clientWidth, height: window.innerHeight },
        align,
      );
      popover.style.top = `${top}px`;
      popover.style.left = `${left}px`;
      popover.style.maxHeight = `${maxHeight}px`;
    };
    const onpointerdown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && !popover.contains(target) && !trigger.contains(target)) onDismiss();
    };

    const onscroll = (event: Event) => {
      if (!popover.contains(event.target as Node | null)) place();
    };

    place();
    // Content that arrives later (items loaded on first use) changes the size: place it again.
    const resized = new ResizeObserver(() => place());
    resized.observe(popover);
    window.addEventListener("resize", place);
    // Capture: a scroll anywhere (the sidebar's list, a pane) moves the trigger; the popover's own does not.
    window.addEventListener("scroll", onscroll, { capture: true, passive: true });
    document.addEventListener("pointerdown", onpointerdown, { capture: true });
    return () => {
      resized.disconnect();
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", onscroll, { capture: true });
      document.removeEventListener("pointerdown", onpointerdown, { capture: true });
      if (popover.matches(":popover-open")) popover.hidePopover();
    };
  };
}

/**
 * Gives the element the focus once the popover around it is shown: `anchoredTo` shows it in the same
 * flush, and a hidden popover's content cannot take focus before.
 */
export const focusWhenShown: Attachment<HTMLElement> = (element) => {
  queueMicrotask(() => element.focus());
};
