import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { ToolResultMessage } from "@earendil-works/pi-ai";

/** One entry of the conversation as people read it; `index` is the fact's position in the session. */
export interface ChatItem {
  index: number;
  message: AgentMessage;
}

export interface PairedResult {
  message: ToolResultMessage;
  index: number;
}

export interface ChatLayout {
  items: ChatItem[];
  /** Tool results by the id of the call they answer, shown inside that call's card. */
  results: Map<string, PairedResult>;
  /** Facts that exist but are not shown in the chat (custom messages with display: false). */
  hiddenCount: number;
}

/**
 * The UI view of the facts: the leading system message (the prompt) is shown by the prompt editor
 * instead, tool results move into their calls' cards, custom messages with
 * `display: false` are left out (they remain facts, and reach the model regardless), everything else
 * appears in order. A result whose call is not in the session is shown on its own.
 */
export function layoutChat(facts: readonly AgentMessage[]): ChatLayout {
  const callIds = new Set<string>();
  const results = new Map<string, PairedResult>();
  const items: ChatItem[] = [];
  let hiddenCount = 0;
  facts.forEach((message, index) => {
    // The leading system message is the system prompt, shown (and edited) above the conversation.
    if (index === 0 && message.role === "system") return;
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "toolCall") callIds.add(block.id);
    }
    if (message.role === "toolResult" && callIds.has(message.toolCallId)) {
      results.set(message.toolCallId, { message, index });
      return;
    }
    if (message.role === "custom" && !message.display) {
      hiddenCount++;
      return;
    }
    items.push({ index, message });
  });
  return { items, results, hiddenCount };
}

/** The last fact is an assistant reply that failed: the chat offers Retry on it. */
export function canRetry(facts: readonly AgentMessage[]): boolean {
  const last = facts.at(-1);
  return last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted");
}

/** A line shown between messages for an entry that is not a fact (a model change, a context edit, …). */
export interface ChatMarker {
  /** The entry's id: stable, for keyed rendering. */
  id: string;
  text: string;
}

/**
 * Where the markers go among the shown items: each after the item that holds the fact it follows (or
 * the nearest shown one before it: a tool result shown inside its call, a hidden custom message), and
 * those before any shown item at the top. `markers` come in path order, as the projection lists them.
 */
export function placeMarkers(
  items: readonly ChatItem[],
  markers: readonly { afterFact: number; marker: ChatMarker }[],
): { leading: ChatMarker[]; after: Map<number, ChatMarker[]> } {
  const leading: ChatMarker[] = [];
  const after = new Map<number, ChatMarker[]>();
  let position = -1;
  for (const { afterFact, marker } of markers) {
    while (position + 1 < items.length && (items[position + 1] as ChatItem).index <= afterFact) position++;
    const item = items[position];
    if (!item) {
      leading.push(marker);
      continue;
    }
    const list = after.get(item.index);
    if (list) list.push(marker);
    else after.set(item.index, [marker]);
  }
  return { leading, after };
}
