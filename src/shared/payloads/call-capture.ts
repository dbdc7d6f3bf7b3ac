import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import type { SimpleStreamOptions } from "@earendil-works/pi-ai";
import { isTerminal } from "../proxy-events.ts";
import type { JsonReplacer } from "./captured-json.ts";
import type { CallModel, PayloadStore } from "./payload-store.ts";

/**
 * The stream option that keeps a call's provider payload: the adapter hands its body to `onPayload` just
 * before sending it; it is serialized (and scrubbed, through `replacer`) there and then, and the hook
 * returns nothing, so the body sent is the adapter's own. A failure to keep it is recorded, never thrown.
 */
export function capturePayload(
  store: PayloadStore,
  callId: string,
  model: CallModel,
  replacer?: JsonReplacer,
): Required<Pick<SimpleStreamOptions, "onPayload">> {
  store.begin(callId, model);
  return {
    onPayload: (payload) => {
      try {
        store.keep(callId, model, payload, replacer);
      } catch (error) {
        store.settle(callId, `capturing it failed: ${(error as Error).message}`);
      }
      return undefined;
    },
  };
}

/** Why a call that ended with `event` has no payload, if the provider never built one. */
export function missingPayloadReason(event: ProxyAssistantMessageEvent): string {
  if (event.type === "error") {
    return event.reason === "aborted"
      ? "the call was stopped before the provider built its request"
      : `the provider failed before building its request: ${event.errorMessage ?? "no error message"}`;
  }
  return "the provider did not hand its request body over";
}

/** Settle the call's payload as the stream ends: before its last event leaves, so a reader never races it. */
export async function* settlingPayload(
  store: PayloadStore,
  callId: string,
  events: AsyncIterable<ProxyAssistantMessageEvent>,
): AsyncGenerator<ProxyAssistantMessageEvent, void, undefined> {
  for await (const event of events) {
    if (isTerminal(event)) store.settle(callId, missingPayloadReason(event));
    yield event;
  }
}
