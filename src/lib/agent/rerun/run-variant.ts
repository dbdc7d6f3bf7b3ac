import {
  normalizeContext,
  type Api,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Model,
} from "@earendil-works/pi-ai";
import type { PayloadResponse } from "../../../shared/api-types.ts";
import type { MirrorSpeed } from "../../../shared/mirror/mirror-speed.ts";
import type { CallRecord, NewCall, SessionMeta } from "../../storage/records.ts";
import type { SessionStore } from "../../storage/session-store.ts";
import { createProxyStreamFn } from "../proxy-stream.ts";
import { buildCallRecord, type OpenCall } from "../recording/call-record.ts";
import { capture, CALL_PART_LIMIT_BYTES, SESSION_CALL_BUDGET_BYTES } from "../recording/capture.ts";
import type { StreamRouter } from "../stream-route.ts";
import { positiveInt } from "../../../shared/positive-int.ts";
import type { VariantRequest } from "./variant-draft.ts";

/** A re-run that has not ended after this long is stopped (a stream that never ends holds nothing up). */
export const VARIANT_TIMEOUT_MS = positiveInt(import.meta.env?.VITE_VARIANT_TIMEOUT_MS) ?? 5 * 60_000;

export interface VariantHost {
  store: SessionStore;
  sessionId: string;
  router: StreamRouter;
  modelOf: (ref: { provider: string; id: string }) => Model<Api>;
  keptBytes: () => number;
  fetchPayload?: (callId: string) => Promise<PayloadResponse> | undefined;
  recorded: (call: CallRecord, meta: SessionMeta) => void;
  /** The pace chosen for the offline models, as the session's runs have it. */
  mirrorSpeed?: () => MirrorSpeed | undefined;
}

/** What a call made outside the session's runs is: a re-run of a call, or a column of variants. */
export interface SideCall {
  /** The session's leaf it was made over. */
  leafId: string | null;
  /** The fields linking the record to what it is a variant of. */
  link: Pick<CallRecord, "variantOf" | "variantSet">;
  /** Named in the sentence of a call stopped for never ending ("The re-run was stopped…"). */
  what: string;
  /** Each streamed event, as it comes. */
  onEvent?: (event: AssistantMessageEvent) => void;
}

/**
 * Run one recorded call again with changes, through the same stream function the session's runs use (so
 * it goes to Mirror in the page or to a real model through the proxy, and the proxy keeps its payload),
 * and keep it as a call of the session linked to the original. The session's facts are not touched: the
 * variant's reply lives in the call's own body.
 */
export async function runVariant(
  host: VariantHost,
  original: CallRecord,
  request: VariantRequest,
  signal: AbortSignal,
  timeoutMs = VARIANT_TIMEOUT_MS,
): Promise<CallRecord> {
  const side = { leafId: original.leafId, link: { variantOf: original.id }, what: "re-run" };
  return (await runSideCall(host, request, side, signal, timeoutMs)).call;
}

/**
 * One model call beside the session's runs (a re-run, a variant column's turn): streamed as the runs
 * stream, stopped by `signal` or after `timeoutMs` without an end, and recorded as a call of the session
 * with its reply kept in its body, the facts untouched.
 */
export async function runSideCall(
  host: VariantHost,
  request: VariantRequest,
  side: SideCall,
  signal: AbortSignal,
  timeoutMs = VARIANT_TIMEOUT_MS,
): Promise<{ call: CallRecord; reply: AssistantMessage }> {
  let open: OpenCall | undefined;
  const streamFn = createProxyStreamFn({
    router: host.router,
    onRequest: (sent) => {
      const id = crypto.randomUUID();
      open = { id, request: sent, sources: sent.messages.map(() => null), leafId: side.leafId };
      return id;
    },
    onAnswered: (callId) => {
      if (open?.id === callId) open.answered = true;
    },
    ...(host.mirrorSpeed ? { mirrorSpeed: host.mirrorSpeed } : {}),
  });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error("timeout")), timeoutMs);
  const onAbort = () => stop.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  let reply: AssistantMessage;
  try {
    const model = host.modelOf({ provider: request.provider, id: request.modelId });
    // As pi's agent loop builds the context it streams (agent-loop.js), from the messages as sent.
    const stream = await streamFn(model, normalizeContext({ messages: request.messages }), {
      ...request.options,
      signal: stop.signal,
    } as Parameters<typeof streamFn>[2]);
    for await (const event of stream) {
      if (open && open.firstTokenAt === undefined && event.type.endsWith("_delta"))
        open.firstTokenAt = Date.now();
      side.onEvent?.(event);
    }
    reply = await stream.result();
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
  if (stop.signal.aborted && !signal.aborted && reply.stopReason === "aborted")
    reply = {
      ...reply,
      errorMessage: `The ${side.what} was stopped after ${(timeoutMs / 1000).toLocaleString("en")} s without an end.`,
    };
  if (!open) throw new Error(reply.errorMessage ?? `The ${side.what} sent no request.`);
  const record = await buildCallRecord(open, reply, undefined, Date.now(), host);
  const kept = host.keptBytes();
  const variant: NewCall = {
    summary: { ...record.summary, ...side.link },
    body: {
      ...record.body,
      reply: capture(reply, CALL_PART_LIMIT_BYTES, SESSION_CALL_BUDGET_BYTES - kept),
    },
  };
  const { call, meta } = await host.store.appendCall(host.sessionId, variant);
  host.recorded(call, meta);
  return { call, reply };
}
