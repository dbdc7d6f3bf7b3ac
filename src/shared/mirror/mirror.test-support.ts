import { zeroUsage } from "../usage.ts";

/** A reply of the unpaced offline model that was stopped after `text`: what pi-ai's transform drops. */
export function stoppedMirrorReply(text: string, timestamp: number) {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "mirror",
    provider: "mirror",
    model: "mirror-instant",
    usage: zeroUsage(),
    stopReason: "aborted",
    timestamp,
  };
}
