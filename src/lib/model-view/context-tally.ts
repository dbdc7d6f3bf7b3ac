import type { Message } from "@earendil-works/pi-ai";
import { calculateContextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { messageTokens } from "../messages/tokens.ts";

/**
 * pi-ai's estimate of a context (`estimateContextTokens`), kept as a tally that a longer context continues:
 * a session's model view grows by a message or two per append, and estimating the whole context again at
 * each one walked every message (tens of milliseconds at 100,000 facts). The rule is pi-ai's: the last reply
 * whose usage applies to its prefix (not aborted, not failed, a usage above zero, and no earlier message
 * newer than it) counts as reported, and only the messages after it are estimated; without such a reply,
 * every message is. Whether a reply applies depends only on what precedes it, so appending messages never
 * changes the anchor already found, only adds a later one.
 */
export interface ContextTally {
  /** pi-ai's estimate of the context tallied so far. */
  readonly tokens: number;
  /** The newest timestamp of the messages tallied (pi-ai's `latestPrefixTimestamp`). */
  readonly latest: number;
  /** The reported usage of the last reply that applies, if any. */
  readonly anchored: number | undefined;
  /** The estimate of the messages after that reply, or of every message when there is none. */
  readonly estimated: number;
}

const EMPTY: ContextTally = {
  tokens: 0,
  latest: Number.NEGATIVE_INFINITY,
  anchored: undefined,
  estimated: 0,
};

/** The usage a reply reports, as pi-ai's estimator reads it (a reply without one reported none). */
function reportedUsage(message: Message): number {
  if (message.role !== "assistant") return 0;
  const { usage } = message;
  return typeof usage === "object" && usage !== null ? calculateContextTokens(usage) : 0;
}

/**
 * The tally of `messages`, given `before`, the tally of `messages.slice(0, from)` (none: from the start).
 * Estimates only the messages from `from` on that follow the last reply with usage.
 */
export function tallyContext(
  messages: readonly Message[],
  from = 0,
  before: ContextTally = EMPTY,
): ContextTally {
  let latest = before.latest;
  let anchorIndex = -1;
  let anchored = before.anchored;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === "assistant") {
      const usage = reportedUsage(message);
      if (
        message.timestamp >= latest &&
        message.stopReason !== "aborted" &&
        message.stopReason !== "error" &&
        usage > 0
      ) {
        anchorIndex = index;
        anchored = usage;
      }
    }
    latest = Math.max(latest, message.timestamp);
  }
  let estimated = anchorIndex >= 0 ? 0 : before.estimated;
  for (let index = anchorIndex >= 0 ? anchorIndex + 1 : from; index < messages.length; index++)
    estimated += messageTokens(messages[index] as Message);
  return { tokens: (anchored ?? 0) + estimated, latest, anchored, estimated };
}
