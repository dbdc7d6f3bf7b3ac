import { countOf } from "../../shared/count-of.ts";
import type { PreviewRequest } from "../agent/stream-route.ts";
import { summarizeProviderView } from "../model-view/provider-change-labels.ts";
import type { ProviderView } from "../model-view/provider-changes.ts";

/**
 * "4 messages to local/fixture-tools, options {"sessionId":"…"}": what the previewed request carries. When
 * the provider transform changes how many messages there are (an aborted reply dropped), both counts and
 * why: the payload shown below holds the provider's.
 */
export function previewSummary(request: PreviewRequest, provider?: ProviderView): string {
  const { model, context, options } = request;
  const sent = options && Object.keys(options).length > 0 ? `, options ${JSON.stringify(options)}` : "";
  const to = `${model.provider}/${model.id}${sent}`;
  if (provider && provider.messages.length !== context.messages.length)
    return `${summarizeProviderView(provider)}; to ${to}`;
  return `${countOf(context.messages.length, "message")} to ${to}`;
}

const QUOTE_CHARS = 80;

/** Which prompt the preview includes: the composer's message, or none. */
export function previewPromptLine(prompt: string): string {
  const text = prompt.trim().replace(/\s+/g, " ");
  if (text === "")
    return "The composer is empty, so this is the session as it stands. Type a message to see it in the payload.";
  const quoted = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS - 1)}…` : text;
  return `With the message in the composer: “${quoted}”.`;
}
