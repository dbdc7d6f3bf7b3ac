import type { AssistantMessage } from "@earendil-works/pi-ai";

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
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    timestamp: 1,
  };
}
