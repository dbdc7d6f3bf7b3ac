import { createContext } from "svelte";
import type { FocusTargets } from "./focus-targets.ts";

export type DialogName = "inject" | "shortcuts" | "tools" | "storage";

interface Focusable {
  focus(): void;
  isConnected: boolean;
}

/**
 * The app's own dialogs (injection, keyboard shortcuts): which one is open, and where focus goes back to
 * when it closes: the element that had it before, or the composer when that element is gone (a button
 * that was replaced, a session that changed).
 */
export class Dialogs {
  readonly #focusTargets: FocusTargets;
  readonly #activeElement: () => Focusable | null;
  #open = $state<DialogName | undefined>(undefined);
  #returnTo: Focusable | null = null;

  constructor(focusTargets: FocusTargets, activeElement: () => Focusable | null) {
    this.#focusTargets = focusTargets;
    this.#activeElement = activeElement;
  }

  isOpen(name: DialogName): boolean {
    return this.#open === name;
  }

  open(name: DialogName): void {
    if (this.#open === name) return;
    if (!this.#open) this.#returnTo = this.#activeElement();
    this.#open = name;
  }

  close(name: DialogName): void {
    if (this.#open !== name) return;
    this.#open = undefined;
    const target = this.#returnTo;
    this.#returnTo = null;
    // After the dialog has left the DOM; the native dialog's own restoring would land on <body>.
    queueMicrotask(() => {
      if (target?.isConnected) target.focus();
      else this.#focusTargets.focus("composer");
    });
  }
}

export const [getDialogs, setDialogs] = createContext<Dialogs>();
