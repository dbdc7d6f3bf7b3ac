/**
 * The sizes of the resizable panes, and how a separator's keys change them. Pure: the Layout keeps the
 * values and remembers them; the Splitter turns keys and drags into calls here.
 */

/** One resizable pane: its size's unit, bounds, default and the steps a key moves it by. */
export interface PaneBounds {
  readonly min: number;
  readonly max: number;
  readonly initial: number;
  /** Arrow keys move by this; with Shift, by `bigStep`. */
  readonly step: number;
  readonly bigStep: number;
  /** Spoken and shown after the number ("px", "%"). */
  readonly unit: string;
}

/** The sessions list, in CSS pixels: wide enough for a title, never wider than a third of a laptop. */
export const SESSIONS_PANE: PaneBounds = {
  min: 160,
  max: 480,
  initial: 240,
  step: 16,
  bigStep: 64,
  unit: "px",
};

/**
 * The inspector, as a share (percent) of the room right of the sessions list: a share keeps the
 * proportion when the window changes size. The chat keeps its own minimum width beside it (in CSS).
 */
export const INSPECTOR_PANE: PaneBounds = { min: 25, max: 80, initial: 60, step: 2, bigStep: 10, unit: "%" };

export function clampSize(bounds: PaneBounds, value: number): number {
  if (!Number.isFinite(value)) return bounds.initial;
  return Math.round(Math.min(bounds.max, Math.max(bounds.min, value)));
}

/** Which way the pane grows when its separator moves right: a pane left of it grows, one right of it shrinks. */
export type PaneSide = "before" | "after";

/**
 * The size after a key on the pane's separator, or undefined when the key is not the separator's. Arrows move
 * the separator on screen (Left moves it left, whichever pane that grows), Home and End go to the bounds
 * (the pane's smallest and largest, as the window splitter pattern has it), Enter back to the default.
 */
export function sizeAfterKey(
  bounds: PaneBounds,
  side: PaneSide,
  current: number,
  key: string,
  shift: boolean,
): number | undefined {
  const step = shift ? bounds.bigStep : bounds.step;
  const towardRight = side === "before" ? step : -step;
  switch (key) {
    case "ArrowRight":
      return clampSize(bounds, current + towardRight);
    case "ArrowLeft":
      return clampSize(bounds, current - towardRight);
    case "Home":
      return bounds.min;
    case "End":
      return bounds.max;
    case "Enter":
      return bounds.initial;
    default:
      return undefined;
  }
}

/** A remembered size, or the default when none is stored or what is stored is not a number. */
export function readSize(
  storage: Pick<Storage, "getItem"> | undefined,
  key: string,
  bounds: PaneBounds,
): number {
  try {
    const stored = storage?.getItem(key);
    if (stored === null || stored === undefined || stored.trim() === "") return bounds.initial;
    return clampSize(bounds, Number(stored));
  } catch {
    return bounds.initial;
  }
}

export function writeSize(storage: Pick<Storage, "setItem"> | undefined, key: string, value: number): void {
  try {
    storage?.setItem(key, String(value));
  } catch {
    // Only the size is not remembered.
  }
}
