import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../../shared/api-types.ts";
import { streamedOutputEstimate } from "../../models/usage.ts";
import type { CallRecord, Captured, NewCall, ProviderEndpoint, SessionMeta } from "../../storage/records.ts";
import type { SessionStore } from "../../storage/session-store.ts";
import type { RecordedRequest } from "../proxy-stream.ts";
import { CALL_PART_LIMIT_BYTES, capture, SESSION_CALL_BUDGET_BYTES } from "./capture.ts";

export interface CallRecorderHost {
  store: SessionStore;
  sessionId: string;
  /** Bytes of call bodies this session has kept so far (from its metadata). */
  keptBytes: () => number;
  /** The provider payload the proxy captured for this call (and its endpoint); undefined when none can tell. */
  fetchPayload?: (callId: string) => Promise<PayloadResponse> | undefined;
  recorded: (call: CallRecord, meta: SessionMeta) => void;
  failed: (error: Error) => void;
}

interface OpenCall {
  id: string;
  request: RecordedRequest;
  sources: (string | null)[];
  leafId: string | null;
  firstTokenAt?: number;
  /** A proxy (or the page) answered the request: only then is there a payload to ask for. */
  answered?: boolean;
}

const NO_PAYLOAD: Captured<unknown> = { kept: "none", bytes: 0, reason: "the proxy did not report it" };
const NOT_ANSWERED: Captured<unknown> = {
  kept: "none",
  bytes: 0,
  reason: "the call was stopped before any proxy answered its request",
};

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
        this.#host.failed(error as Error);
      });
  }

  /** Resolves when every call ended so far is stored (or failed to be). */
  settled(): Promise<void> {
    return this.#chain;
  }

  async #store(
    open: OpenCall,
    reply: AssistantMessage,
    replyEntryId: string | undefined,
    endedAt: number,
  ): Promise<void> {
    const { request } = open;
    const budgetLeft = () => SESSION_CALL_BUDGET_BYTES - this.#host.keptBytes();
    const messages = capture([...request.messages], CALL_PART_LIMIT_BYTES, budgetLeft());
    const kept =
      messages.kept === "all" ? messages.bytes : messages.kept === "truncated" ? messages.text.length : 0;
    let payload = NO_PAYLOAD;
    let endpoint: ProviderEndpoint | undefined;
    try {
      const reported = open.answered ? await this.#host.fetchPayload?.(open.id) : undefined;
      if (reported) ({ payload, endpoint } = reported);
      else if (!open.answered) payload = NOT_ANSWERED;
    } catch (error) {
      payload = { kept: "none", bytes: 0, reason: `capturing it failed: ${(error as Error).message}` };
    }
    // The payload counts against the same budget as the messages recorded with it.
    if (payload.kept === "all") payload = capture(payload.value, CALL_PART_LIMIT_BYTES, budgetLeft() - kept);
    const durationMs = Math.max(0, endedAt - request.at);
    const streamedMs = open.firstTokenAt === undefined ? undefined : endedAt - open.firstTokenAt;
    const outputEstimate = streamedOutputEstimate(reply);
    const outputTokensPerSecond =
      streamedMs !== undefined && streamedMs > 0 && reply.usage.output > 0
        ? (reply.usage.output * 1000) / streamedMs
        : undefined;
    const call: NewCall = {
      summary: {
        id: open.id,
        startedAt: request.at,
        provider: request.provider,
        modelId: request.modelId,
        api: request.api,
        options: request.options,
        messageCount: request.messages.length,
        leafId: open.leafId,
        ...(replyEntryId ? { replyEntryId } : {}),
        outcome: {
          stopReason: reply.stopReason,
          usage: reply.usage,
          ...(outputEstimate !== undefined ? { outputEstimate } : {}),
          ...(reply.errorMessage ? { errorMessage: reply.errorMessage } : {}),
        },
        timing: {
          ...(open.firstTokenAt !== undefined ? { firstTokenMs: open.firstTokenAt - request.at } : {}),
          durationMs,
          ...(outputTokensPerSecond !== undefined ? { outputTokensPerSecond } : {}),
        },
        capture: { messages: messages.kept, payload: payload.kept },
      },
      body: { messages, sources: open.sources, payload, ...(endpoint ? { endpoint } : {}) },
    };
    const { call: stored, meta } = await this.#host.store.appendCall(this.#host.sessionId, call);
    this.#host.recorded(stored, meta);
  }
}
