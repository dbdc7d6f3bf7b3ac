import { around, CHAT_WINDOW, earlier, latest, later, shown, type WindowRange } from "./chat-window.ts";

/**
 * The part of the conversation the chat renders (see chat-window.ts): one writer of the range; the chat
 * pane reads `start`/`end` and calls the steps.
 */
export class ChatWindow {
  readonly #count: () => number;
  #range = $state.raw<WindowRange>(latest(0));
  readonly #shown = $derived(shown(this.#range, this.#countNow()));

  constructor(count: () => number) {
    this.#count = count;
    this.#range = latest(count());
  }

  #countNow(): number {
    return this.#count();
  }

  get start(): number {
    return this.#shown.start;
  }

  get end(): number {
    return this.#shown.end;
  }

  /** The window ends at the latest item and moves with new ones. */
  get following(): boolean {
    return this.#range.following;
  }

  showEarlier(): void {
    this.#range = earlier(this.#range, this.#count());
  }

  showLater(): void {
    this.#range = later(this.#range, this.#count());
  }

  /** Make sure the item at `position` is rendered, moving the window there when it is not. */
  include(position: number): void {
    const { start, end } = this.#shown;
    if (position >= start && position < end) return;
    this.#range = around(position, this.#count());
  }

  followLatest(): void {
    if (!this.#range.following) this.#range = latest(this.#count());
  }

  static readonly limits = CHAT_WINDOW;
}
