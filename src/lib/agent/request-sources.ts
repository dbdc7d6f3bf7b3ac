import type { Message } from "@earendil-works/pi-ai";

/**
 * The fact index behind each message of a request (-1 where none), found by identity among the model view's
 * messages (`viewSources[i]` is the fact of `viewMessages[i]`). A request usually sends the view's messages
 * in the view's order: each is then found at its own position, with no lookup table over the whole session.
 * A message elsewhere (a replay's view, a message added to the request) is looked up by identity, in a
 * table made only then. (An object the view held twice would be traced to its own place when found there,
 * and to its last place otherwise; a session's messages are distinct objects, one per fact.)
 */
export function requestSources<Named>(
  messages: readonly Message[],
  viewMessages: readonly Message[],
  viewSources: ArrayLike<number>,
  // What each fact index is given as, in the same pass: a request holds every message of the session, and
  // a second array of them made apart is copied for nothing.
  name: (fact: number) => Named,
): Named[] {
  let byMessage: Map<Message, number> | undefined;
  return messages.map((message, index) => {
    if (viewMessages[index] === message) return name(viewSources[index] ?? -1);
    if (!byMessage) {
      byMessage = new Map();
      viewMessages.forEach((viewed, at) => byMessage?.set(viewed, viewSources[at] ?? -1));
    }
    return name(byMessage.get(message) ?? -1);
  });
}
