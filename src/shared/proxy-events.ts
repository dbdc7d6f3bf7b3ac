import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import type { AssistantMessageEvent } from "@earendil-works/pi-ai";
import { zeroUsage } from "./usage.ts";

/**
 * Map one pi-ai stream event to the proxy protocol that `streamProxy` in pi-agent-core reads:
 * the same events without `partial` (the client rebuilds it), with `contentSignature` on `*_end`.
 */
export function toProxyEvent(event: AssistantMessageEvent): ProxyAssistantMessageEvent {
  switch (event.type) {
    case "start":
      return { type: "start" };
    case "text_start":
    case "thinking_start":
      return { type: event.type, contentIndex: event.contentIndex };
    case "text_delta":
    case "thinking_delta":
    case "toolcall_delta":
      return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
    case "text_end": {
      const block = event.partial.content[event.contentIndex];
      const signature = block?.type === "text" ? block.textSignature : undefined;
      return {
        type: "text_end",
        contentIndex: event.contentIndex,
        ...(signature ? { contentSignature: signature } : {}),
      };
    }
    case "thinking_end": {
      const block = event.partial.content[event.contentIndex];
      const signature = block?.type === "thinking" ? block.thinkingSignature : undefined;
      return {
        type: "thinking_end",
        contentIndex: event.contentIndex,
        ...(signature ? { contentSignature: signature } : {}),
      };
    }
    case "toolcall_start": {
      const block = event.partial.content[event.contentIndex];
      const call = block?.type === "toolCall" ? block : undefined;
      return {
        type: "toolcall_start",
        contentIndex: event.contentIndex,
        id: call?.id ?? "",
        toolName: call?.name ?? "",
      };
    }
    case "toolcall_end":
      return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: event.toolCall };
    case "done":
      if (event.reason === "deferred") {
        // The proxy never asks for deferred replies; a provider that answers with one cannot be streamed.
        return {
          type: "error",
          reason: "error",
          errorMessage: "The provider deferred this response, which the playground proxy does not support.",
          usage: event.message.usage,
        };
      }
      return {
        type: "done",
        reason: event.reason,
        usage: event.message.usage,
        ...(event.message.providerThinkingLevel !== undefined
          ? { providerThinkingLevel: event.message.providerThinkingLevel }
          : {}),
      };
    case "error":
      return {
        type: "error",
        reason: event.reason,
        ...(event.error.errorMessage !== undefined ? { errorMessage: event.error.errorMessage } : {}),
        usage: event.error.usage,
        ...(event.error.providerThinkingLevel !== undefined
          ? { providerThinkingLevel: event.error.providerThinkingLevel }
          : {}),
      };
  }
}

/** One SSE frame. JSON never contains a raw newline, so a single `data:` line is always enough. */
export function sseFrame(event: ProxyAssistantMessageEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** Whether the event ends the stream: the proxy protocol always finishes with one of these. */
export function isTerminal(event: ProxyAssistantMessageEvent): boolean {
  return event.type === "done" || event.type === "error";
}

export type ProxyErrorEvent = Extract<ProxyAssistantMessageEvent, { type: "error" }>;

/** An error event the proxy raises itself, having spent nothing. */
export function proxyError(errorMessage: string, reason: "error" | "aborted" = "error"): ProxyErrorEvent {
  return { type: "error", reason, errorMessage, usage: zeroUsage() };
}

/** An aborted stream says so even when the provider gave no text. */
export function describeAbort(event: ProxyErrorEvent): ProxyErrorEvent {
  return event.reason === "aborted"
    ? { ...event, errorMessage: event.errorMessage ?? "Request was aborted" }
    : event;
}

/**
 * The proxy protocol for one upstream stream: every event mapped by `toProxyEvent`, error events passed
 * through `describeError`, and exactly one terminal event at the end, even when the upstream stops early
 * or throws. The server and the in-page proxy both stream through here.
 */
export async function* proxyEventStream(
  events: AsyncIterable<AssistantMessageEvent>,
  describeError: (event: ProxyErrorEvent) => ProxyErrorEvent = describeAbort,
): AsyncGenerator<ProxyAssistantMessageEvent, void, undefined> {
  try {
    for await (const event of events) {
      let proxyEvent = toProxyEvent(event);
      if (proxyEvent.type === "error") proxyEvent = describeError(proxyEvent);
      yield proxyEvent;
      if (isTerminal(proxyEvent)) return;
    }
  } catch (error) {
    yield proxyError(`The proxy failed while streaming: ${(error as Error).message}`);
    return;
  }
  yield proxyError("The provider's stream ended without a final event.");
}
