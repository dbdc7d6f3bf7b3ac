import { createContext } from "svelte";
import type { ModelView } from "../model-view/project.ts";

export type Selection = { side: "fact" | "model"; index: number } | undefined;

export type { Reveal } from "../ui/reveal.ts";
import type { Reveal } from "../ui/reveal.ts";

/**
 * Which fact or model message is selected, shared by the chat and the inspector. The counterpart on the
 * other side comes from the model view's provenance. Selecting in one place asks the other places to
 * reveal the same fact: the facts list, the model view, and the chat message it belongs to.
 */
export class FactSelection {
  readonly #view: () => ModelView;
  #selection = $state.raw<Selection>(undefined);
  #revealFact = $state.raw<Reveal | undefined>(undefined);
  #revealModel = $state.raw<Reveal | undefined>(undefined);
  #revealChat = $state.raw<Reveal | undefined>(undefined);
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
  /** The chat message to scroll to: the selected fact's, or the one a tool result belongs to. */
  get revealChat(): Reveal | undefined {
    return this.#revealChat;
  }

  /** A fact chosen in the inspector's facts list. */
  selectFact(index: number): void {
    this.#selection = { side: "fact", index };
    this.#revealCounterpart(index);
    this.#revealChat = this.#reveal(index);
  }

  /** A model message chosen in the model view: its source fact is revealed in the list and the chat. */
  selectModel(index: number): void {
    this.#selection = { side: "model", index };
    const source = this.#view().sourceOf[index] ?? -1;
    if (source < 0) return;
    this.#revealFact = this.#reveal(source);
    this.#revealChat = this.#reveal(source);
  }

  /**
   * A fact gone to from within the facts list without clicking it (a search's next match): selected, and
   * revealed in the list itself as well as in the model view and the chat.
   */
  goToFact(index: number): void {
    this.selectFact(index);
    this.#revealFact = this.#reveal(index);
  }

  /** A model message gone to from within the model view (a search's next match), revealed there too. */
  goToModel(index: number): void {
    this.selectModel(index);
    this.#revealModel = this.#reveal(index);
  }

  /** A message chosen in the chat: the inspector reveals its fact and model message. */
  selectFromChat(index: number): void {
    this.#selection = { side: "fact", index };
    this.#revealFact = this.#reveal(index);
    this.#revealCounterpart(index);
  }

  /** Scroll the chat to the selected fact's message again (after the chat came back on screen). */
  showSelectedInChat(): void {
    const index = this.selectedFact;
    if (index >= 0) this.#revealChat = this.#reveal(index);
  }

  clear(): void {
    this.#selection = undefined;
  }

  #revealCounterpart(factIndex: number): void {
    const target = this.#view().targetOf[factIndex] ?? -1;
    if (target >= 0) this.#revealModel = this.#reveal(target);
  }

  #reveal(index: number): Reveal {
    return { index, nonce: ++this.#nonce };
  }
}

export const [getFactSelection, setFactSelection] = createContext<FactSelection>();
