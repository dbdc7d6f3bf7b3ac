import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { kindOf } from "../messages/kinds/index.ts";

/** The text a person expects on the clipboard when copying a chat message: what the message says, as its kind says. */
export function copyText(message: AgentMessage): string {
  return kindOf(message).copyText(message);
}
