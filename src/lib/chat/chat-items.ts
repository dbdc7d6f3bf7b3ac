import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { ToolResultMessage } from "@earendil-works/pi-ai";
import { startsWith } from "../../shared/starts-with.ts";
import { viewPasses } from "../agent/view-passes.ts";

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
  results: ReadonlyMap<string, PairedResult>;
  /** Facts that exist but are not shown in the chat (custom messages with display: false). */
  hiddenCount: number;
}

/** A layout being built, with the ids of the tool calls seen so far. */
interface LayoutBuild extends ChatLayout {
  results: Map<string, PairedResult>;
  callIds: Set<string>;
}

/**
 * The UI view of the facts: the leading system message (the prompt) is shown by the prompt editor
 * instead, tool results move into their calls' cards, custom messages with
 * `display: false` are left out (they remain facts, and reach the model regardless), everything else
 * appears in order. A result whose call is not in the session is shown on its own.
 */
export function layoutChat(facts: readonly AgentMessage[]): LayoutBuild {
  const build: LayoutBuild = {
    items: [],
    results: new Map(),
    hiddenCount: 0,
    callIds: new Set(),
  };
  facts.forEach((message, index) => place(build, message, index));
  return build;
}

function place(build: LayoutBuild, message: AgentMessage, index: number): void {
  // The leading system message is the system prompt, shown (and edited) above the conversation.
  if (index === 0 && message.role === "system") return;
  if (message.role === "assistant") {
    for (const block of message.content) if (block.type === "toolCall") build.callIds.add(block.id);
  }
  if (message.role === "toolResult" && build.callIds.has(message.toolCallId)) {
    build.results.set(message.toolCallId, { message, index });
    return;
  }
  if (message.role === "custom" && !message.display) {
    build.hiddenCount++;
    return;
  }
  build.items.push({ index, message });
}

/** Layouts made ahead of a session's first render, each taken by the first layouter that lays out its facts. */
const madeAhead = new WeakMap<readonly AgentMessage[], LayoutBuild>();

/**
 * Lay out `facts` now (the layout made is returned), for the layouter that lays them out next: made in a task of its own before a large
 * session is first shown, it is not part of the render's task.
 */
export function layoutAhead(facts: readonly AgentMessage[]): ChatLayout {
  let made = madeAhead.get(facts);
  if (!made) madeAhead.set(facts, (made = layoutChat(facts)));
  return made;
}

viewPasses.push(layoutAhead);

/**
 * `layoutChat` kept up to date as the session changes, cheaply when facts were only appended (every
 * message of a run): the earlier facts keep their places and only the new ones are laid out, where a
 * session of 100,000 facts would otherwise be laid out again at every reply. Any other change is laid
 * out in full. Either way the result equals `layoutChat`.
 */
export class ChatLayouter {
  #facts: readonly AgentMessage[] = [];
  #build: LayoutBuild | undefined;

  layout(facts: readonly AgentMessage[]): ChatLayout {
    const previous = this.#build;
    const before = this.#facts;
    this.#facts = facts;
    if (previous && startsWith(facts, before)) {
      if (facts.length === before.length) return previous;
      // The added facts are laid out apart and joined to the earlier items once: in a long session a copy
      // of the items costs milliseconds, and a copy then pushed to is copied again as it grows.
      const tail: LayoutBuild = {
        items: [],
        results: previous.results,
        hiddenCount: previous.hiddenCount,
        // Ids only ever join this set, and only the latest build reads it.
        callIds: previous.callIds,
      };
      const added = facts.slice(before.length);
      // A new result is shown in its call's card: a new map, so the cards see it.
      if (added.some((message) => message.role === "toolResult")) tail.results = new Map(previous.results);
      added.forEach((message, offset) => place(tail, message, before.length + offset));
      const build: LayoutBuild = {
        ...tail,
        items: tail.items.length > 0 ? previous.items.concat(tail.items) : previous.items,
      };
      this.#build = build;
      return build;
    }
    // Taken, not shared: a layouter extends its build's set of call ids as facts are appended.
    const ahead = madeAhead.get(facts);
    madeAhead.delete(facts);
    this.#build = ahead ?? layoutChat(facts);
    return this.#build;
  }
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
