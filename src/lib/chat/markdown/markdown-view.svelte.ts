import type { Deliver, MarkdownOutcome, MarkdownRenderer } from "./renderer.ts";

/**
 * What one text block of a reply shows: its rendered Markdown, or plain text while the worker works or
 * when the source is over budget. While a reply streams, the last rendered text stays until a newer one
 * arrives, and an answer for an older text never replaces a newer one.
 */
export class MarkdownView {
  readonly #renderer: MarkdownRenderer;
  #outcome = $state.raw<MarkdownOutcome | undefined>();
  #latest = "";
  #shown = "";
  readonly #deliver: Deliver = (outcome, source) => {
    const newer = this.#latest.startsWith(source) && source.length > this.#shown.length;
    if (source === this.#latest || newer) this.#set(outcome, source);
  };

  constructor(renderer: MarkdownRenderer) {
    this.#renderer = renderer;
  }

  /** Undefined until something is rendered: show the source as plain text meanwhile. */
  get outcome(): MarkdownOutcome | undefined {
    return this.#outcome;
  }

  show(source: string): void {
    this.#latest = source;
    const now = this.#renderer.now(source);
    if (now) this.#set(now.outcome, source);
    if (now?.final) this.#renderer.cancel(this);
    else this.#renderer.request(this, source, this.#deliver);
  }

  dispose(): void {
    this.#renderer.cancel(this);
  }

  #set(outcome: MarkdownOutcome, source: string): void {
    this.#outcome = outcome;
    this.#shown = source;
  }
}
