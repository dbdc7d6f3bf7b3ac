import { createContext } from "svelte";

/**
 * The message waiting in the composer, for views that show what sending it would do (the next call's
 * preview in the calls view). The composer provides it; its text is read when asked, so a reader in a
 * reactive context follows the composer's typing. One per open session.
 */
export class PendingPrompt {
  #read: () => string = () => "";

  /** The composer says where its message is read from ("" when it holds none to send as a prompt). */
  provide(read: () => string): void {
    this.#read = read;
  }

  get text(): string {
    return this.#read();
  }
}

export const [getPendingPrompt, setPendingPrompt] = createContext<PendingPrompt>();
