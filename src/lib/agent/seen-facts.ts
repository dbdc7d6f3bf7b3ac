import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { INJECTED_API } from "../messages/factories.ts";

/**
 * How many leading facts the model has already seen: those in the last request from this tab
 * (`sentFactCount`), and everything up to the latest reply not written by hand (produced from them),
 * which also holds after a reload, when this tab has sent nothing yet.
 */
export function seenFactCount(facts: readonly AgentMessage[], sentFactCount = 0): number {
  let throughReply = 0;
  for (let index = facts.length - 1; index >= 0; index--) {
    const fact = facts[index];
    if (fact?.role === "assistant" && fact.api !== INJECTED_API) {
      throughReply = index + 1;
      break;
    }
  }
  return Math.max(throughReply, sentFactCount);
}
