import type { ModelView } from "../model-view/project.ts";

export type Selection = { side: "fact" | "model"; index: number } | undefined;

export type { Reveal } from "../ui/reveal.ts";
import type { Reveal } from "../ui/reveal.ts";

/**
 * Which fact or model message is selected, and its counterpart on the other side through the model
 * view's provenance. Selecting on one side reveals the counterpart on the other.
 */
export class InspectorState {
  readonly #view: () => ModelView;
  #selection = $state.raw<Selection>(undefined);
  #revealFact = $state.raw<Reveal | undefined>(undefined);
  #revealModel = $state.raw<Reveal | undefined>(undefined);
  #nonce = 0;

  constructor(view: () => ModelView) {
    this.#view = view;
  }

  get selection(): Selection {
    return this.#selection;
  }

  /** The selected fact, directly or as the source of the selected model message; -1 when none. */
  readonly selectedFact = $derived.by(() => {
    const selection = this.#selection;
    if (!selection) return -1;
    return selection.side === "fact" ? selection.index : (this.#view().sourceOf[selection.index] ?? -1);
  });

  /** The selected model message, directly or as the target of the selected fact; -1 when it has none. */
  readonly selectedModel = $derived.by(() => {
    const selection = this.#selection;
    if (!selection) return -1;
    return selection.side === "model" ? selection.index : (this.#view().targetOf[selection.index] ?? -1);
  });

  get revealFact(): Reveal | undefined {
    return this.#revealFact;
  }
  get revealModel(): Reveal | undefined {
    return this.#revealModel;
  }

  selectFact(index: number): void {
    this.#selection = { side: "fact", index };
    const target = this.#view().targetOf[index] ?? -1;
    if (target >= 0) this.#revealModel = { index: target, nonce: ++this.#nonce };
  }

  selectModel(index: number): void {
    this.#selection = { side: "model", index };
    const source = this.#view().sourceOf[index] ?? -1;
    if (source >= 0) this.#revealFact = { index: source, nonce: ++this.#nonce };
  }

  clear(): void {
    this.#selection = undefined;
  }
}
