import { createContext } from "svelte";
import type { Attachment } from "svelte/attachments";

/** Places the app moves focus to by name: after Stop, after a decision, from a shortcut. */
export type FocusTargetName = "composer" | "facts" | "calls" | "search" | "replayQuestion";

/** Places focus reaches through a search their owner runs: the element may not be rendered yet. */
export type FocusSearchName = "approval";

/**
 * Named focus targets. An element registers itself while it is on screen; asking for a target that is
 * not there yet (a pane that loads on first use, a session being created) focuses it when it arrives.
 */
export class FocusTargets {
  readonly #elements = new Map<FocusTargetName, HTMLElement>();
  readonly #searches = new Map<FocusSearchName, () => Promise<boolean>>();
  #pending: FocusTargetName | undefined;

  /**
   * Offer a search for `name` (the chat finds the request waiting for approval, bringing it into its
   * rendered window first). Returns the function that withdraws it.
   */
  provide(name: FocusSearchName, search: () => Promise<boolean>): () => void {
    this.#searches.set(name, search);
    return () => {
      if (this.#searches.get(name) === search) this.#searches.delete(name);
    };
  }

  /** Run the search offered for `name`: whether it found and focused something. */
  async seek(name: FocusSearchName): Promise<boolean> {
    return (await this.#searches.get(name)?.()) ?? false;
  }

  /** An attachment that registers the element under `name` while it is mounted. */
  register(name: FocusTargetName): Attachment<HTMLElement> {
    return (element) => {
      this.#elements.set(name, element);
      if (this.#pending === name) {
        this.#pending = undefined;
        // After the mount finishes, so the element is laid out and focusable.
        queueMicrotask(() => element.focus());
      }
      return () => {
        if (this.#elements.get(name) === element) this.#elements.delete(name);
      };
    };
  }

  /** Focus a target now, or as soon as it appears. */
  focus(name: FocusTargetName): void {
    const element = this.#elements.get(name);
    if (element?.isConnected && !isDisabled(element)) {
      this.#pending = undefined;
      element.focus();
    } else {
      this.#pending = name;
    }
  }

  /**
   * Focus the next element to register under `name`, not the one there now: an action that opens another
   * session, whose composer replaces this one's.
   */
  focusNext(name: FocusTargetName): void {
    this.#pending = name;
  }
}

function isDisabled(element: HTMLElement): boolean {
  return "disabled" in element && element.disabled === true;
}

export const [getFocusTargets, setFocusTargets] = createContext<FocusTargets>();
