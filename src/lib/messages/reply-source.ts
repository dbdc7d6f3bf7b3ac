import type { AssistantMessage } from "@earendil-works/pi-ai";
import { INJECTED_API } from "./factories.ts";

/** Marks the assistant replies of example sessions: prepared text, no model produced it. */
export const EXAMPLE_API = "example";

export interface ReplySource {
  /** Who or what wrote the reply, as the chat shows it under the reply. */
  label: string;
  /** No model produced this reply. */
  prepared: boolean;
}

/** Who wrote an assistant reply: a model (provider/model), a person (injected), or an example's author. */
export function replySource(message: AssistantMessage): ReplySource {
  if (message.api === EXAMPLE_API)
    return { label: "Prepared reply (example): no model wrote it", prepared: true };
  if (message.api === INJECTED_API) return { label: "Written by hand (injected)", prepared: true };
  return { label: `${message.provider}/${message.model}`, prepared: false };
}
