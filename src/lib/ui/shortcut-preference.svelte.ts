import type { FlagStore } from "./flags.ts";

const KEY = "pi-playground:single-key-shortcuts";

/**
 * Whether single-key shortcuts (i, n, /, …) are on. They can be turned off, as WCAG 2.1.4 asks, for
 * people whose speech input or switch device types single characters; Escape to stop a run stays.
 */
export class ShortcutPreference {
  readonly #flags: FlagStore;
  #singleKeys = $state(true);

  constructor(flags: FlagStore) {
    this.#flags = flags;
    this.#singleKeys = flags.read(KEY, true);
  }

  get singleKeys(): boolean {
    return this.#singleKeys;
  }

  setSingleKeys(enabled: boolean): void {
    this.#singleKeys = enabled;
    this.#flags.write(KEY, enabled);
  }
}
