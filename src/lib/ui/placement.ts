export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface Placement {
  top: number;
  left: number;
  /** The height the popover may take before it must scroll. */
  maxHeight: number;
}

const GAP = 4;
const MARGIN = 8;

/**
 * Where a popover opened from `trigger` goes, in viewport coordinates: below the trigger, or above it
 * when there is more room there; its start edge (align "start") or end edge (align "end") on the
 * trigger's; always inside the viewport with a small margin.
 */
export function placePopover(
  trigger: Box,
  popover: { width: number; height: number },
  viewport: { width: number; height: number },
  align: "start" | "end",
): Placement {
  const below = viewport.height - (trigger.top + trigger.height) - GAP - MARGIN;
  const above = trigger.top - GAP - MARGIN;
  const downwards = popover.height <= below || below >= above;
  const maxHeight = Math.max(0, downwards ? below : above);
  const height = Math.min(popover.height, maxHeight);
  const top = downwards ? trigger.top + trigger.height + GAP : trigger.top - GAP - height;

  const preferred = align === "start" ? trigger.left : trigger.left + trigger.width - popover.width;
  const rightmost = viewport.width - MARGIN - popover.width;
  const left = Math.max(MARGIN, Math.min(preferred, rightmost));
  return { top, left, maxHeight };
}
