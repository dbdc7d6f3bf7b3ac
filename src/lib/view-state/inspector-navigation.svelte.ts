import { createContext } from "svelte";
import type { CallLog } from "../agent/recording/call-log.svelte.ts";

/** What the inspector shows: the facts beside the model view, the recorded calls, the session's tree, the
 * anatomy of its context, its replays, or variants side by side. */
export type InspectorView = "facts" | "calls" | "tree" | "anatomy" | "replay" | "variants";

type Chosen = { seq: number } | { replyEntryId: string; nonce: number; draft?: boolean } | { preview: true };

/**
 * Which view the inspector shows and which recorded call is open, shared by the chat and the inspector:
 * "What the model saw" on a reply opens the calls view on the call that produced it. The call is found by
 * the reply's entry once the calls are read, so asking works before the calls view has ever been opened.
 */
export class InspectorNavigation {
  readonly #log: () => CallLog;
  #view = $state<InspectorView>("facts");
  #chosen = $state.raw<Chosen | undefined>(undefined);
  #nonce = 0;
  #replayFrom = $state<number | undefined>(undefined);

  constructor(log: () => CallLog) {
    this.#log = log;
  }

  get view(): InspectorView {
    return this.#view;
  }

  /**
   * The sequence number of the open call: the one chosen in the list, or the one that produced the reply
   * asked about; undefined when none was chosen (the view opens the latest) or the reply has no call.
   */
  readonly selected: number | undefined = $derived.by(() => {
    const chosen = this.#chosen;
    if (!chosen) return undefined;
    if ("seq" in chosen) return chosen.seq;
    return "replyEntryId" in chosen ? this.#log().forReply(chosen.replyEntryId)?.seq : undefined;
  });

  /** The reply asked about, while it stays the question (until a call is chosen in the list). */
  get reply(): string | undefined {
    const chosen = this.#chosen;
    return chosen && "replyEntryId" in chosen ? chosen.replyEntryId : undefined;
  }

  /** The calls view shows the next call's preview instead of a recorded call. */
  get previewing(): boolean {
    const chosen = this.#chosen;
    return chosen !== undefined && "preview" in chosen;
  }

  /** The calls are read and none of them produced the reply asked about. */
  readonly replyUnrecorded: boolean = $derived.by(
    () => this.reply !== undefined && this.#log().state === "ready" && this.selected === undefined,
  );

  /** Changes with every question about a reply, so the list scrolls to its call each time. */
  get revealNonce(): number {
    const chosen = this.#chosen;
    return chosen && "nonce" in chosen ? chosen.nonce : 0;
  }

  showFacts(): void {
    this.#view = "facts";
  }

  showCalls(): void {
    this.#view = "calls";
  }

  show(view: InspectorView): void {
    this.#view = view;
  }

  /** Nothing chosen: the calls view opens on the latest call. */
  showLatest(): void {
    this.#chosen = undefined;
  }

  /** A call chosen in the calls list. */
  choose(seq: number): void {
    this.#chosen = { seq };
  }

  /** The fact a replay was asked for from ("Replay from here"), by its position among the facts. */
  get replayFrom(): number | undefined {
    return this.#replayFrom;
  }

  /** "Replay from here": the replay view, starting from this fact. */
  showReplay(factIndex: number): void {
    this.#replayFrom = factIndex;
    this.#view = "replay";
  }

  /** "Preview next call": the calls view shows what would be sent now. */
  showPreview(): void {
    this.#chosen = { preview: true };
    this.#view = "calls";
  }

  /**
   * "What the model saw": the calls view, on the call that produced this reply; with `draft`, its re-run
   * draft open ("Re-run with changes" on the reply).
   */
  showReply(replyEntryId: string, { draft = false } = {}): void {
    this.#chosen = { replyEntryId, nonce: ++this.#nonce, ...(draft ? { draft } : {}) };
    this.#view = "calls";
  }

  /** Changes with every "Re-run with changes" asked from a reply (0: none asked), so the draft opens each time. */
  get draftNonce(): number {
    const chosen = this.#chosen;
    return chosen && "draft" in chosen && chosen.draft ? chosen.nonce : 0;
  }
}

export const [getInspectorNavigation, setInspectorNavigation] = createContext<InspectorNavigation>();
