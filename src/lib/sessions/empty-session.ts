import { readSettings } from "../agent/session-settings.ts";
import { countOf } from "../../shared/count-of.ts";
import type { SessionMeta } from "../storage/records.ts";

/**
 * Every session starts with one fact, the system message (prompt and tool declarations), which the chat
 * shows as the prompt editor rather than as a message. Counts people read leave it out.
 */
const LEADING_FACTS = 1;

/** "No messages yet", or how many messages the chat shows (the system prompt is not one of them). */
export function messageCountLabel(messageCount: number): string {
  const messages = Math.max(0, messageCount - LEADING_FACTS);
  return messages === 0 ? "No messages yet" : countOf(messages, "message");
}

/** What is known of a session to tell whether it is untouched. */
export interface SessionState {
  meta: SessionMeta;
  /** The facts it holds now (the stored count may lag behind an open session). */
  factCount: number;
}

/** Untouched: nothing but the system message, not renamed, not a fork, nothing held for the next turn. */
export function isEmptySession({ meta, factCount }: SessionState): boolean {
  return (
    factCount <= LEADING_FACTS &&
    !meta.titleIsCustom &&
    meta.forkedFrom === undefined &&
    readSettings(meta.settings).nextTurn.length === 0
  );
}

/**
 * The session "New session" should open instead of creating another empty one: the open session when
 * it is empty, else the most recent empty one in the list; undefined when a new one is needed.
 */
export function reusableSession(
  sessions: readonly SessionMeta[],
  current: SessionState | undefined,
): string | undefined {
  if (current && isEmptySession(current)) return current.meta.id;
  return sessions.find(
    (meta) => meta.id !== current?.meta.id && isEmptySession({ meta, factCount: meta.messageCount }),
  )?.id;
}
