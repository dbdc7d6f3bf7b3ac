/** Ordinary prose, for the width of an average character in a font. */
const SAMPLE =
  "A model reads what the session sends it, and a person reads what comes back: words of every length, with commas, numbers like 2048 and a few Capitals.";

/** Lines wrap at word boundaries, so a line holds a little less than its width in average characters. */
const WRAP_LOSS = 0.94;

/**
 * How many characters a line of `width` pixels holds in prose whose average character is `charWidth`
 * pixels wide; undefined when either is unknown (not laid out yet, no font).
 */
export function charsPerLine(width: number, charWidth: number): number | undefined {
  if (!(width > 0) || !(charWidth > 0)) return undefined;
  return Math.max(1, (width * WRAP_LOSS) / charWidth);
}

/** A new estimate replaces the one in use only when it differs enough to move the pieces' heights. */
export function changedEnough(current: number | undefined, next: number): boolean {
  return current === undefined || Math.abs(next - current) / current > 0.05;
}

/** The custom property the pieces' CSS reads: `calc(4000 / var(--line-chars, 90) * 1lh)`. */
export const LINE_CHARS_PROPERTY = "--line-chars";

const charWidths = new Map<string, number>();

/** The average character width of `font` (style, weight, size and family), measured once per font. */
function averageCharWidth(font: string): number | undefined {
  const known = charWidths.get(font);
  if (known !== undefined) return known;
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return undefined;
  context.font = font;
  const width = context.measureText(SAMPLE).width / SAMPLE.length;
  charWidths.set(font, width);
  return width;
}

/**
 * Keeps a text shown in pieces told how many characters fit on one of its lines. A piece out of view is
 * skipped by the browser (`content-visibility: auto`) and given an estimated height meanwhile; scrolling
 * to a focused link, a found word or a fact in a long reply goes by the heights above it, so the estimate
 * must be close: a piece of 4,000 characters is about 45 lines in the chat's column on a desktop and 115
 * on a phone. The estimate follows the container's width and font, and is written on the container (as
 * `--line-chars`) for the pieces' CSS. It does not read the pieces: a skipped piece's height is the
 * estimate itself.
 */
export class PieceLines {
  readonly #container: HTMLElement;
  readonly #observer: ResizeObserver | undefined;
  #lineChars: number | undefined;
  #width = 0;
  #frame = 0;

  constructor(container: HTMLElement) {
    this.#container = container;
    // The observer reports after layout: the width it gives costs no layout of its own.
    this.#observer =
      typeof ResizeObserver === "function"
        ? new ResizeObserver(([entry]) => entry && this.#learn(entry.contentRect.width))
        : undefined;
    this.#observer?.observe(container);
  }

  /** The characters per line in use, once learnt. */
  get lineChars(): number | undefined {
    return this.#lineChars;
  }

  disconnect(): void {
    this.#observer?.disconnect();
    cancelAnimationFrame(this.#frame);
  }

  #learn(width: number): void {
    // The container grows as pieces are laid out: only a new width (or font) changes the estimate.
    if (width === this.#width) return;
    this.#width = width;
    const style = getComputedStyle(this.#container);
    const charWidth = averageCharWidth(
      `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`,
    );
    const next = charWidth === undefined ? undefined : charsPerLine(width, charWidth);
    if (next === undefined || !changedEnough(this.#lineChars, next)) return;
    this.#lineChars = next;
    // Written on the next frame: heights changed inside the observer's report would be a loop it reports.
    cancelAnimationFrame(this.#frame);
    this.#frame = requestAnimationFrame(() =>
      this.#container.style.setProperty(LINE_CHARS_PROPERTY, next.toFixed(1)),
    );
  }
}
