import type { AssistantMessage } from "@earendil-works/pi-ai";
import { usage } from "../chat-session.test-support.ts";

/** A finished reply of the offline model with `text`, one token in and out: for tests of variant columns. */
export function mirrorReply(
  text: string,
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "mirror",
    provider: "mirror",
    model: "mirror",
    usage,
    stopReason,
    timestamp: 1,
  };
}
