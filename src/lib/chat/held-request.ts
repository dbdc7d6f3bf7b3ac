import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { convertMessage } from "../messages/convert.ts";
import type { VisibilityPolicies } from "../messages/policies.ts";

export interface HeldRequestItem {
  message: Message;
  /** A steering message queued during the hold: it joins the call when the person continues. */
  joining: boolean;
}

export interface HeldRequest {
  items: HeldRequestItem[];
  /** Steering messages that join the facts on Continue but not the request (hidden by policy, or !!). */
  joiningUnsent: AgentMessage[];
}

/**
 * The request a held call will carry on Continue: the model view as it is now (the transcript's
 * context through convertToLlm), followed by the steering messages that join it (as many as the Agent
 * delivers before one call), each converted as the model will read it. Steering arrives after the turn's
 * tool results, so appending their conversions is what convertToLlm gives once they are facts.
 */
export function heldRequest(
  modelMessages: readonly Message[],
  steering: readonly AgentMessage[],
  steeringPerCall: number,
  policies: VisibilityPolicies,
): HeldRequest {
  const items: HeldRequestItem[] = modelMessages.map((message) => ({ message, joining: false }));
  const joiningUnsent: AgentMessage[] = [];
  for (const fact of steering.slice(0, steeringPerCall)) {
    const { message } = convertMessage(fact, policies);
    if (message) items.push({ message, joining: true });
    else joiningUnsent.push(fact);
  }
  return { items, joiningUnsent };
}
