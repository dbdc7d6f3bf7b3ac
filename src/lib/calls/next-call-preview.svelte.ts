import type { NextCallPreview } from "../agent/session-agent.svelte.ts";

export type PreviewState = "idle" | "building" | "ready" | "failed";

/** What a preview was built from: when any of it changes, the preview no longer shows the next call. */
export interface PreviewBasis {
  /** The message in the composer ("" when none). */
  prompt: string;
  /**
   * What the request is made of, each replaced (never changed in place) when it changes: the session's
   * model view and its settings (model, thinking level, held messages).
   */
  session: readonly unknown[];
}

/**
 * The calls view's "Preview next call": asks the session for the request the next call would make and the
 * payload its provider would receive, one at a time (a newer question wins over an older answer), and
 * remembers what it was built from so the view can say when it is out of date.
 */
export class NextCallPreviewState {
  readonly #build: (prompt: string | undefined) => Promise<NextCallPreview>;
  #state = $state<PreviewState>("idle");
  #result = $state.raw<NextCallPreview | undefined>(undefined);
  #basis = $state.raw<PreviewBasis | undefined>(undefined);
  #problem = $state<string | undefined>(undefined);
  #generation = 0;

  constructor(build: (prompt: string | undefined) => Promise<NextCallPreview>) {
    this.#build = build;
  }

  get state(): PreviewState {
    return this.#state;
  }
  get result(): NextCallPreview | undefined {
    return this.#result;
  }
  get basis(): PreviewBasis | undefined {
    return this.#basis;
  }
  /** Why the preview could not be built (the proxy unreachable, a refused request). */
  get problem(): string | undefined {
    return this.#problem;
  }
  get shown(): boolean {
    return this.#state !== "idle";
  }

  /** The preview shows something other than what would be sent now. */
  outdated(now: PreviewBasis): boolean {
    const basis = this.#basis;
    if (basis === undefined) return false;
    return (
      basis.prompt !== now.prompt ||
      basis.session.length !== now.session.length ||
      basis.session.some((part, index) => part !== now.session[index])
    );
  }

  async build(basis: PreviewBasis): Promise<void> {
    const generation = ++this.#generation;
    this.#state = "building";
    this.#problem = undefined;
    try {
      const result = await this.#build(basis.prompt.trim() === "" ? undefined : basis.prompt);
      if (generation !== this.#generation) return;
      this.#result = result;
      this.#basis = basis;
      this.#state = "ready";
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#result = undefined;
      this.#basis = basis;
      this.#problem = `The preview could not be built: ${(error as Error).message}`;
      this.#state = "failed";
    }
  }

  close(): void {
    this.#generation++;
    this.#state = "idle";
    this.#result = undefined;
    this.#basis = undefined;
    this.#problem = undefined;
  }
}
