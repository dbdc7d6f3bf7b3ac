import { countOf } from "../../shared/count-of.ts";
import type { PreviewRequest } from "../agent/stream-route.ts";

/** "4 messages to local/fixture-tools, options {"sessionId":"…"}": what the previewed request carries. */
export function previewSummary(request: PreviewRequest): string {
  const { model, context, options } = request;
  const sent = options && Object.keys(options).length > 0 ? `, options ${JSON.stringify(options)}` : "";
  return `${countOf(context.messages.length, "message")} to ${model.provider}/${model.id}${sent}`;
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
