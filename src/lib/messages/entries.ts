import type { AgentMessage } from "@earendil-works/pi-agent-core";

/**
 * A session is a tree of entries, as in pi's coding agent: each entry names its parent, and the current
 * leaf picks one path through the tree. The facts the playground shows and the model reads are the
 * messages on that path. Entry fields and names follow pi 1.6's session files, so a session converts to
 * and from them without loss.
 */
export interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO 8601, as in pi's session files (messages keep their own numeric timestamps). */
  timestamp: string;
}

/** A fact: one message of the session. */
export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

export type SessionEntry = MessageEntry;

/** pi's entry ids: eight hex digits, unique within the session, falling back to a whole UUID. */
export function newEntryId(taken: (id: string) => boolean): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = crypto.randomUUID().slice(0, 8);
    if (!taken(id)) return id;
  }
  return crypto.randomUUID();
}

export function entryTimestamp(message: AgentMessage): string {
  const time =
    typeof message.timestamp === "number" && Number.isFinite(message.timestamp)
      ? message.timestamp
      : Date.now();
  return new Date(time).toISOString();
}

export function messageEntry(message: AgentMessage, parentId: string | null, id: string): MessageEntry {
  return { type: "message", id, parentId, timestamp: entryTimestamp(message), message };
}

/**
 * Chain messages into entries, each the parent of the next, hanging from `parentId`: how a flat list of
 * facts (a new session, an import of a flat file) becomes a path of the tree.
 */
export function chainEntries(
  messages: readonly AgentMessage[],
  parentId: string | null,
  taken: (id: string) => boolean = () => false,
): MessageEntry[] {
  const ids = new Set<string>();
  let parent = parentId;
  return messages.map((message) => {
    const id = newEntryId((candidate) => ids.has(candidate) || taken(candidate));
    ids.add(id);
    const entry = messageEntry(message, parent, id);
    parent = id;
    return entry;
  });
}

/**
 * A record skipped as damaged leaves its children without a parent. Each orphan hangs from the entry
 * stored just before it instead (entries come in order of creation), so the facts around a damaged
 * record still show.
 */
export function relinkOrphans(entries: readonly SessionEntry[]): SessionEntry[] {
  const ids = new Set(entries.map((entry) => entry.id));
  let previous: string | null = null;
  return entries.map((entry) => {
    const orphan = entry.parentId !== null && !ids.has(entry.parentId);
    const storedBefore = previous;
    previous = entry.id;
    return orphan ? { ...entry, parentId: storedBefore } : entry;
  });
}

/**
 * The entries from the root to `leafId`, following parents. A leaf that does not exist falls back to the
 * last entry; a cycle ends the path where it closes.
 */
export function pathTo(
  entries: readonly SessionEntry[] | ReadonlyMap<string, SessionEntry>,
  leafId: string | null,
): SessionEntry[] {
  const byId =
    entries instanceof Map
      ? entries
      : new Map((entries as readonly SessionEntry[]).map((entry) => [entry.id, entry]));
  const last = entries instanceof Map ? undefined : (entries as readonly SessionEntry[]).at(-1);
  let id = leafId !== null && byId.has(leafId) ? leafId : (last?.id ?? null);
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  while (id !== null) {
    const entry = byId.get(id);
    if (!entry || seen.has(id)) break;
    seen.add(id);
    path.push(entry);
    id = entry.parentId;
  }
  return path.reverse();
}
