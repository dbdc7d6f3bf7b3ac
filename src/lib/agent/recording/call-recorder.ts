import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../../shared/api-types.ts";
import type { Notices } from "../../notices/notices.svelte.ts";
import type { CallRecord, SessionMeta } from "../../storage/records.ts";
import { StorageError, type SessionStore } from "../../storage/session-store.ts";
import type { RecordedRequest } from "../stream-route.ts";
import type { OpenCall } from "./call-record.ts";

export interface CallRecorderHost {
  store: SessionStore;
  sessionId: string;
  /** Bytes of call bodies this session has kept so far (from its metadata). */
  keptBytes: () => number;
  /** The provider payload the proxy captured for this call (and its endpoint); undefined when none can tell. */
  fetchPayload?: (callId: string) => Promise<PayloadResponse> | undefined;
  recorded: (call: CallRecord, meta: SessionMeta) => void;
  /** Where a call that could not be recorded is said (the chat goes on without it). */
  notices: Notices;
}

/**
 * Records every model call of a session where it is made: the stream function reports the request as it
 * leaves (messages, model, options), the run reports the first token and the reply, and the record is
 * stored once the call is over — after the chat has the reply, so recording never holds it up.
 */
export class CallRecorder {
  readonly #host: CallRecorderHost;
  #open: OpenCall | undefined;
  #chain: Promise<void> = Promise.resolve();

  constructor(host: CallRecorderHost) {
    this.#host = host;
  }

  /** A request left: remember it, and name it so the proxy can file the provider payload under that id. */
  begin(request: RecordedRequest, sources: (string | null)[], leafId: string | null): string {
    const id = crypto.randomUUID();
    this.#open = { id, request, sources, leafId };
    return id;
  }

  /** A proxy answered the call's request (before that, a stop leaves nothing anywhere to ask for). */
  answered(callId: string): void {
    if (this.#open?.id === callId) this.#open.answered = true;
  }

  /** The reply's first token arrived. */
  token(now = Date.now()): void {
    if (this.#open && this.#open.firstTokenAt === undefined) this.#open.firstTokenAt = now;
  }

  /** The reply is final (done, error or aborted): store the call. */
  end(reply: AssistantMessage, replyEntryId: string | undefined, now = Date.now()): void {
    const open = this.#open;
    this.#open = undefined;
    if (!open) return;
    this.#chain = this.#chain
      .then(() => this.#store(open, reply, replyEntryId, now))
      .catch((error: unknown) => {
        this.#failed(error as Error);
      });
  }

  /** Resolves when every call ended so far is stored (or failed to be). */
  settled(): Promise<void> {
    return this.#chain;
  }

  #failed(error: Error): void {
    const key = `calls:${this.#host.sessionId}`;
    this.#host.notices.post(
      error instanceof StorageError && error.kind === "quota"
        ? {
            // The full disk has its own notice; this one only says what else it stops.
            key,
            severity: "info",
            source: "storage",
            text: "Model calls are not recorded while the disk is full; the chat is not affected.",
          }
        : {
            key,
            severity: "warning",
            source: "storage",
            text: `A model call could not be recorded (the chat is not affected): ${error.message}`,
          },
    );
  }

  async #store(
    open: OpenCall,
    reply: AssistantMessage,
    replyEntryId: string | undefined,
    endedAt: number,
  ): Promise<void> {
    const { buildCallRecord } = await import("./call-record.ts");
    const call = await buildCallRecord(open, reply, replyEntryId, endedAt, this.#host);
    const { call: stored, meta } = await this.#host.store.appendCall(this.#host.sessionId, call);
    this.#host.recorded(stored, meta);
  }
}
