import { createContext } from "svelte";
import type { Attachment } from "svelte/attachments";

/** Places the app moves focus to by name: after Stop, after a decision, from a shortcut. */
export type FocusTargetName = "composer" | "facts" | "calls";

/**
 * Named focus targets. An element registers itself while it is on screen; asking for a target that is
 * not there yet (a pane that loads on first use, a session being created) focuses it when it arrives.
 */
export class FocusTargets {
  readonly #elements = new Map<FocusTargetName, HTMLElement>();
  #pending: FocusTargetName | undefined;

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
}

function isDisabled(element: HTMLElement): boolean {
  return "disabled" in element && element.disabled === true;
}

export const [getFocusTargets, setFocusTargets] = createContext<FocusTargets>();
