import type { CallBodyRecord, CallRecord } from "../../storage/records.ts";
import type { SessionStore } from "../../storage/session-store.ts";
import { keepingShown, LATEST_CALLS, placedAtEnd } from "./latest-calls.ts";

export type CallLogState = "idle" | "loading" | "ready" | "failed";

/**
 * The model calls of one session, as the calls view lists them. Read from storage the first time someone
 * looks (the chat never needs them), then kept current as calls are recorded. Bodies are read one call at
 * a time and kept while the session is open.
 */
export class CallLog {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  readonly #nextSeq: () => number;
  #calls = $state.raw<CallRecord[]>([]);
  #latest = $state.raw<readonly (CallRecord | undefined)[] | undefined>(undefined);
  #state = $state<CallLogState>("idle");
  #problem = $state<string | undefined>(undefined);
  // Not reactive: a cache behind `body()`, never rendered itself.
  readonly #bodies = new Map<number, Promise<CallBodyRecord | undefined>>();

  /**
   * `nextSeq`: the sequence number the session's next call takes (calls are numbered from 0), from which
   * the first reading knows where the latest calls start; behind, it only makes that part larger.
   */
  constructor(store: SessionStore, sessionId: string, nextSeq: () => number = () => 0) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#nextSeq = nextSeq;
  }

  get calls(): readonly CallRecord[] {
    return this.#calls;
  }
  /**
   * While the calls are first read: the last of them, at the end of a list as long as all of them (the
   * others not read yet, undefined). A list that opens on its end shows them until `calls` is ready.
   */
  get latest(): readonly (CallRecord | undefined)[] | undefined {
    return this.#latest;
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
    // Read again (the list is shown), or a session of few calls: in one go, as asking for the latest
    // calls first would only add a round trip.
    const from = this.#state === "ready" ? 0 : this.#nextSeq() - LATEST_CALLS;
    this.#state = "loading";
    try {
      const { calls, warnings } = await this.#store.listCalls(
        this.#sessionId,
        from > 0
          ? {
              from,
              onRead: (latest) => (this.#latest = placedAtEnd(latest.calls, latest.total)),
            }
          : undefined,
      );
      this.#calls = this.#latest ? keepingShown(calls, this.#latest) : calls;
      this.#problem = warnings.length > 0 ? warnings.join(" ") : undefined;
      this.#state = "ready";
    } catch (error) {
      this.#problem = `The recorded calls could not be read: ${(error as Error).message}`;
      this.#state = "failed";
    } finally {
      this.#latest = undefined;
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
