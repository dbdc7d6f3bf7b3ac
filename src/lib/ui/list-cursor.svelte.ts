/** What a key does in a list: move the cursor, choose the row under it, or nothing. */
export type ListKeyResult = { kind: "move"; index: number } | { kind: "choose"; index: number } | undefined;

/**
 * Pure key handling for a one-Tab-stop list: arrows and j/k move by one, Page Up/Down by a page,
 * Home/End to the ends, Enter or Space choose the row under the cursor.
 */
export function listKey(key: string, active: number, count: number, page: number): ListKeyResult {
  if (count === 0) return undefined;
  const clamp = (index: number) => Math.max(0, Math.min(count - 1, index));
  switch (key) {
    case "ArrowDown":
    case "j":
      return { kind: "move", index: active < 0 ? 0 : clamp(active + 1) };
    case "ArrowUp":
    case "k":
      return { kind: "move", index: active < 0 ? count - 1 : clamp(active - 1) };
    case "PageDown":
      return { kind: "move", index: clamp(active + Math.max(1, page)) };
    case "PageUp":
      return { kind: "move", index: clamp(active - Math.max(1, page)) };
    case "Home":
      return { kind: "move", index: 0 };
    case "End":
      return { kind: "move", index: count - 1 };
    case "Enter":
    case " ":
      return active >= 0 && active < count ? { kind: "choose", index: active } : undefined;
    default:
      return undefined;
  }
}

/**
 * The keyboard cursor of a list that is one Tab stop (the list itself has focus and points at the
 * active row with aria-activedescendant). Separate from the selection: moving does not choose.
 */
export class ListCursor {
  #active = $state(-1);

  get active(): number {
    return this.#active;
  }

  /** Focus arrives: start from the selected row, else from the first row in view. */
  enter(selected: number, firstInView: number, count: number): void {
    if (this.#active >= 0 && this.#active < count) return;
    this.#active = selected >= 0 && selected < count ? selected : Math.min(firstInView, count - 1);
  }

  moveTo(index: number): void {
    this.#active = index;
  }
}
