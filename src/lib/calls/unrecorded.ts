import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { countOf } from "../../shared/count-of.ts";
import { CANCELLED_BEFORE_SENDING } from "../agent/call-gate.svelte.ts";
import { INJECTED_API } from "../messages/factories.ts";
import type { CallRecord } from "../storage/records.ts";

/** A model reply on the session's path (not one prepared by hand), with the entry that holds it. */
export interface ModelReply {
  entryId: string;
  timestamp: number;
  /** A call held before sending and cancelled: it stands in the session, and no request was ever made. */
  unsent?: true;
}

export function modelReplies(
  facts: readonly AgentMessage[],
  entryIdAt: (index: number) => string | undefined,
): ModelReply[] {
  const replies: ModelReply[] = [];
  facts.forEach((fact, index) => {
    const entryId = entryIdAt(index);
    if (fact.role !== "assistant" || fact.api === INJECTED_API || !entryId) return;
    const unsent = fact.stopReason === "aborted" && fact.errorMessage === CANCELLED_BEFORE_SENDING;
    replies.push(
      unsent ? { entryId, timestamp: fact.timestamp, unsent } : { entryId, timestamp: fact.timestamp },
    );
  });
  return replies;
}

/** Replies older than the first recorded call: the playground did not record calls when they were made. */
function beforeRecording(reply: ModelReply, calls: readonly CallRecord[]): boolean {
  const first = calls[0];
  return first === undefined || reply.timestamp < first.startedAt;
}

/**
 * What the calls view says about replies it has no call for: a session from before calls were recorded
 * (an old one, or an import) has replies and no calls, or calls from some point on only.
 */
export function unrecordedNote(
  replies: readonly ModelReply[],
  calls: readonly CallRecord[],
): string | undefined {
  const produced = new Set(calls.map((call) => call.replyEntryId));
  const older = replies.filter(
    (reply) => !reply.unsent && !produced.has(reply.entryId) && beforeRecording(reply, calls),
  );
  if (older.length === 0)
    return calls.length === 0
      ? "No model call yet. Send a message: every call is kept here, with what exactly was sent."
      : undefined;
  const made = `${older.length === 1 ? "was" : "were"} made before calls were recorded`;
  return calls.length === 0
    ? `This session's ${countOf(older.length, "model reply", "model replies")} ${made}, so ${older.length === 1 ? "its call was" : "their calls were"} not kept. New calls will be.`
    : `${countOf(older.length, "earlier model reply", "earlier model replies")} ${made}; only the calls since are kept.`;
}

/** Why "What the model saw" finds no call for a reply. */
export function replyWithoutCall(reply: ModelReply | undefined, calls: readonly CallRecord[]): string {
  if (reply?.unsent)
    return "This call was cancelled while it was paused, before it was sent: the model saw nothing, so there is no call to show.";
  if (!reply || beforeRecording(reply, calls))
    return "This reply was made before calls were recorded, so what the model saw for it was not kept.";
  return "No call is recorded for this reply: its record was not stored (the page may have closed while it streamed, or storage failed).";
}
