import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../../shared/api-types.ts";
import { streamedOutputEstimate } from "../../models/usage.ts";
import type { Captured, NewCall, ProviderEndpoint } from "../../storage/records.ts";
import type { RecordedRequest } from "../stream-route.ts";
import { CALL_PART_LIMIT_BYTES, capture, captureList, SESSION_CALL_BUDGET_BYTES } from "./capture.ts";

// The record of a finished call, built after the chat has its reply: a chunk of its own, loaded with the
// first call's end, so the page's first load does without it.

export interface OpenCall {
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

export interface CallRecordHost {
  /** Bytes of call bodies this session has kept so far (from its metadata). */
  keptBytes: () => number;
  /** The provider payload the proxy captured for this call (and its endpoint); undefined when none can tell. */
  fetchPayload?: (callId: string) => Promise<PayloadResponse> | undefined;
}

/** A finished call as storage keeps it: its summary and its body, each part within the session's budget. */
export async function buildCallRecord(
  open: OpenCall,
  reply: AssistantMessage,
  replyEntryId: string | undefined,
  endedAt: number,
  host: CallRecordHost,
): Promise<NewCall> {
  const { request } = open;
  const budgetLeft = () => SESSION_CALL_BUDGET_BYTES - host.keptBytes();
  const messages = await captureList(request.messages, CALL_PART_LIMIT_BYTES, budgetLeft());
  const kept =
    messages.kept === "all" ? messages.bytes : messages.kept === "truncated" ? messages.text.length : 0;
  let payload = NO_PAYLOAD;
  let endpoint: ProviderEndpoint | undefined;
  try {
    const reported = open.answered ? await host.fetchPayload?.(open.id) : undefined;
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
  return {
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
}
