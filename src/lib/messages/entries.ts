import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { ImageContent, SystemMessage, TextContent, Usage } from "@earendil-works/pi-ai";

/**
 * A session is a tree of entries, as in pi's coding agent: each entry names its parent, and the current
 * leaf picks one path through the tree. The facts the playground shows and the model reads come from the
 * entries on that path. Entry types and fields are pi 1.6's session-file entries, so a session converts to
 * and from pi's files without loss; an entry of a type this version does not know is kept as it was.
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

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** The turns before it are summarised; the model reads the summary and the entries from `firstKeptEntryId` on. */
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  /** Absent in some files; pi's summary then has none either. */
  tokensBefore?: number;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
  /** The complete prompt and tool state at this boundary, when the compaction recorded it. */
  systemMessage?: SystemMessage;
}

/** Where the conversation came back from a branch: what was tried there, for the model. */
export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
}

/** An extension's own state; never part of the model's context. */
export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

/** A bookmark on an entry; `undefined` removes it. */
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}

/** The session's name. */
export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}

/** A message an extension injected; it reaches the model as user content. */
export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  details?: unknown;
  display: boolean;
}

export type EditableContent = string | (TextContent | ImageContent)[] | unknown[];

/**
 * A change to an earlier entry's contribution to the model's context, leaving the entry itself as it was:
 * new content, or (null) nothing at all.
 */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: EditableContent } | null;
}

/** An entry of a type this version does not know: kept exactly as read, and written back as it was. */
export interface UnknownEntry extends EntryBase {
  type: "unknown";
  original: Record<string, unknown>;
}

export type SessionEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | UsageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | LabelEntry
  | SessionInfoEntry
  | CustomMessageEntry
  | ContextEditEntry
  | UnknownEntry;

export type EntryType = SessionEntry["type"];

/** The entry types of pi 1.6's session files (everything but the stand-in for unknown ones). */
export const PI_ENTRY_TYPES = [
  "message",
  "thinking_level_change",
  "model_change",
  "usage",
  "compaction",
  "branch_summary",
  "custom",
  "label",
  "session_info",
  "custom_message",
  "context_edit",
] as const satisfies readonly Exclude<EntryType, "unknown">[];

/** The message of a message entry. */
export function messageOf(entry: SessionEntry | undefined): AgentMessage | undefined {
  return entry?.type === "message" ? entry.message : undefined;
}

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
export function relinkOrphans(
  entries: readonly SessionEntry[],
  /** The entries' ids, where the caller has them already indexed (a set of 100,000 costs tens of ms). */
  ids: { has(id: string): boolean } = new Set(entries.map((entry) => entry.id)),
): SessionEntry[] {
  let previous: string | null = null;
  return entries.map((entry) => {
    const relinked = relinkedOrphan(entry, previous, ids);
    previous = entry.id;
    return relinked;
  });
}

/**
 * An entry as `relinkOrphans` keeps it: itself, or, when its parent is not among `ids`, a copy hanging from
 * the one stored before it.
 */
export function relinkedOrphan(
  entry: SessionEntry,
  storedBefore: string | null,
  ids: { has(id: string): boolean },
): SessionEntry {
  return entry.parentId !== null && !ids.has(entry.parentId) ? { ...entry, parentId: storedBefore } : entry;
}

/**
 * The entries from the root to `leafId`, following parents, as pi's session manager walks them: a null leaf
 * is the empty path (before the first entry), an unknown or absent one falls back to the last entry; a cycle
 * ends the path where it closes.
 */
export function pathTo(
  entries: readonly SessionEntry[] | ReadonlyMap<string, SessionEntry>,
  leafId: string | null | undefined,
): SessionEntry[] {
  if (leafId === null) return [];
  const byId = entries instanceof Map ? entries : entriesById(entries as readonly SessionEntry[]);
  const last = entries instanceof Map ? undefined : (entries as readonly SessionEntry[]).at(-1);
  const start = leafId !== undefined && byId.has(leafId) ? leafId : (last?.id ?? null);
  // A path longer than the entries has gone round a cycle: only then is it walked again, remembering each
  // id, to end it where the cycle closes (a set of 100,000 ids would double the walk's cost).
  const path: SessionEntry[] = [];
  for (let id = start; id !== null;) {
    const entry = byId.get(id);
    if (!entry) break;
    path.push(entry);
    if (path.length > byId.size) return pathClosingCycle(byId, start);
    id = entry.parentId;
  }
  return path.reverse();
}

/** Each entry by its id, the last of the same id winning, as pi's session manager indexes them. */
function entriesById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return byId;
}

function pathClosingCycle(byId: ReadonlyMap<string, SessionEntry>, start: string | null): SessionEntry[] {
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  for (let id = start; id !== null;) {
    const entry = byId.get(id);
    if (!entry || seen.has(id)) break;
    seen.add(id);
    path.push(entry);
    id = entry.parentId;
  }
  return path.reverse();
}
