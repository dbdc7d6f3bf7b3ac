import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { convertToLlm } from "../messages/convert.ts";
import type { VisibilityPolicies } from "../messages/policies.ts";

/** A model view and what it was made from: the context's facts and the policies they were converted with. */
export interface ConvertedContext {
  context: readonly AgentMessage[];
  policies: VisibilityPolicies;
  messages: readonly Message[];
}

/**
 * `convertToLlm(facts, policies)` for a request: the model view's messages when the request's facts are the
 * very facts the view was made from (element by element) with the same policies, which is what a run sends
 * unless a replay changes it; converted afresh otherwise. The session keeps its view up to date as it grows,
 * so a request need not walk every fact again.
 */
export function convertForRequest(
  facts: readonly AgentMessage[],
  policies: VisibilityPolicies,
  view: ConvertedContext | undefined,
): Message[] {
  if (view && view.policies === policies && sameFacts(facts, view.context)) return view.messages.slice();
  return convertToLlm(facts, policies);
}

function sameFacts(a: readonly AgentMessage[], b: readonly AgentMessage[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
