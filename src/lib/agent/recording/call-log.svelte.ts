import type { CallBodyRecord, CallRecord } from "../../storage/records.ts";
import type { SessionStore } from "../../storage/session-store.ts";

export type CallLogState = "idle" | "loading" | "ready" | "failed";

/**
 * The model calls of one session, as the calls view lists them. Read from storage the first time someone
 * looks (the chat never needs them), then kept current as calls are recorded. Bodies are read one call at
 * a time and kept while the session is open.
 */
export class CallLog {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  #calls = $state.raw<CallRecord[]>([]);
  #state = $state<CallLogState>("idle");
  #problem = $state<string | undefined>(undefined);
  // Not reactive: a cache behind `body()`, never rendered itself.
  readonly #bodies = new Map<number, Promise<CallBodyRecord | undefined>>();

  constructor(store: SessionStore, sessionId: string) {
    this.#store = store;
    this.#sessionId = sessionId;
  }

  get calls(): readonly CallRecord[] {
    return this.#calls;
  }
  get state(): CallLogState {
    return this.#state;
  }
  /** Why the calls could not be read, or which records were skipped. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Read the calls from storage, once (again when another tab recorded some). */
  async load({ again = false } = {}): Promise<void> {
    if (this.#state === "loading" || (this.#state === "ready" && !again)) return;
    this.#state = "loading";
    try {
      const { calls, warnings } = await this.#store.listCalls(this.#sessionId);
      this.#calls = calls;
      this.#problem = warnings.length > 0 ? warnings.join(" ") : undefined;
      this.#state = "ready";
    } catch (error) {
      this.#problem = `The recorded calls could not be read: ${(error as Error).message}`;
      this.#state = "failed";
    }
  }

  /** A call of this tab was recorded. */
  added(call: CallRecord): void {
    if (this.#state === "ready") this.#calls = [...this.#calls, call];
  }

  /** The call that produced a reply, if it was recorded. */
  forReply(entryId: string): CallRecord | undefined {
    for (let index = this.#calls.length - 1; index >= 0; index--) {
      const call = this.#calls[index];
      if (call?.replyEntryId === entryId) return call;
    }
    return undefined;
  }

  body(seq: number): Promise<CallBodyRecord | undefined> {
    let body = this.#bodies.get(seq);
    if (!body) {
      body = this.#store.readCallBody(this.#sessionId, seq);
      this.#bodies.set(seq, body);
      body.catch(() => this.#bodies.delete(seq));
    }
    return body;
  }
}
