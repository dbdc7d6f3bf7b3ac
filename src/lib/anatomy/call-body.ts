import type { Message } from "@earendil-works/pi-ai";
import type { CallBodyRecord } from "../storage/records.ts";

/** What is known of a call's body: its messages and their sources, or why not. */
export type CallBody =
  { kind: "kept"; messages: Message[]; sources: (string | null)[] } | { kind: "unknown"; reason: string };

/** A body whose messages were kept whole: the only kind two calls can be compared by. */
export type KeptBody = Extract<CallBody, { kind: "kept" }>;

/** Read a stored body into what the anatomy needs. */
export function readBody(body: CallBodyRecord | undefined, reason = "its body was not found"): CallBody {
  if (!body) return { kind: "unknown", reason };
  if (body.messages.kept === "all")
    return { kind: "kept", messages: body.messages.value, sources: body.sources };
  if (body.messages.kept === "truncated")
    return {
      kind: "unknown",
      reason: `its messages were cut at ${body.messages.text.length.toLocaleString("en-US")} bytes of ${body.messages.bytes.toLocaleString("en-US")}`,
    };
  return { kind: "unknown", reason: `its messages were not kept: ${body.messages.reason}` };
}
