import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { createInitialSystemMessage, toToolDeclaration } from "@earendil-works/pi-ai";
import { chainEntries, type SessionEntry } from "../messages/entries.ts";
import {
  entryRecord,
  SCHEMA_VERSION,
  type EntryRecord,
  type ForkOrigin,
  type ImportOrigin,
  type SessionMeta,
} from "../storage/records.ts";
import { NEW_SESSION_TITLE, type CreateOptions, type SessionStore } from "../storage/session-store.ts";
import { defaultSettings, type SessionSettings } from "./session-settings.ts";
import { enabledDeclarations, sessionTools } from "./tools/tool-definitions.ts";

const DEFAULT_SYSTEM_PROMPT =
  "You are a helpful assistant inside pi playground. Answer briefly. Use the tools when they help: current_time for the date and time, calculate for arithmetic, save_note to keep a note for the user.";

/** What a new session starts from; everything is optional. */
export interface SessionInit {
  title?: string;
  /** Whether the title is the session's own name; by default, whenever a title is given. */
  titleIsCustom?: boolean;
  /** The complete facts, leading system message included; a fresh system message when absent. */
  facts?: readonly AgentMessage[];
  /** A whole tree of entries instead of facts (an import, an example with a compaction), and its leaf. */
  entries?: SessionEntry[];
  leafId?: string | null;
  settings?: SessionSettings;
  systemPrompt?: string;
  forkedFrom?: ForkOrigin;
  /** The header of the pi session file it was imported from. */
  piHeader?: Record<string, unknown>;
  /** The file it was imported from. */
  importedFrom?: ImportOrigin;
}

/**
 * The leading system message of a new session: the prompt and the declarations of its tools (those
 * switched on among the stored definitions; the demo tools when none are stored).
 */
export function createSystemFact(prompt = DEFAULT_SYSTEM_PROMPT, tools?: readonly unknown[]): AgentMessage {
  return createInitialSystemMessage(
    prompt,
    enabledDeclarations(sessionTools(tools)).map(toToolDeclaration),
  ) as AgentMessage;
}

/**
 * A new session as `init` describes it, before anything is stored: its metadata (revision 0, every entry
 * counted) and its entries — those given, or the facts chained from the root, or a fresh system message.
 */
export function newSession(
  init: SessionInit,
  { id = crypto.randomUUID(), now = Date.now() }: { id?: string; now?: number } = {},
): { meta: SessionMeta; entries: SessionEntry[] } {
  const entries =
    init.entries ??
    chainEntries(init.facts ?? [createSystemFact(init.systemPrompt, init.settings?.tools)], null);
  const meta: SessionMeta = {
    schema: SCHEMA_VERSION,
    id,
    title: init.title ?? NEW_SESSION_TITLE,
    titleIsCustom: init.titleIsCustom ?? init.title !== undefined,
    createdAt: now,
    updatedAt: now,
    messageCount: entries.length,
    nextSeq: entries.length,
    revision: 0,
    leafId: init.leafId !== undefined ? init.leafId : (entries.at(-1)?.id ?? null),
    settings: init.settings ?? defaultSettings(),
    ...(init.forkedFrom ? { forkedFrom: init.forkedFrom } : {}),
    ...(init.piHeader ? { piHeader: init.piHeader } : {}),
    ...(init.importedFrom ? { importedFrom: init.importedFrom } : {}),
  };
  return { meta, entries };
}

/** A new session as stored, or as it would have been stored when creating its records failed. */
export interface CreatedSession {
  meta: SessionMeta;
  entries: SessionEntry[];
  /** What the store holds: the records, and the metadata it returned (none when creating failed). */
  stored: { records: EntryRecord[]; meta: SessionMeta | undefined };
}

/**
 * Store a new session as `init` describes it. A failure is not thrown: the session still opens, with the
 * records it would have had, and its writer stores them on its next attempt (and says why meanwhile).
 */
export async function storeNewSession(
  store: SessionStore,
  init: SessionInit,
  options?: CreateOptions,
): Promise<CreatedSession> {
  const { meta, entries } = newSession(init);
  try {
    const stored = options?.storedElsewhere
      ? {
          meta: await options.storedElsewhere(meta),
          records: entries.map((entry, seq) => entryRecord(meta.id, seq, 1, entry)),
        }
      : await store.createSession(meta, entries, options);
    return { meta: stored.meta, entries, stored: { records: stored.records, meta: stored.meta } };
  } catch (error) {
    // Given up (an import cancelled): no session at all, rather than one kept in memory.
    if (options?.signal?.aborted) throw error;
    const records = entries.map((entry, seq) => entryRecord(meta.id, seq, 0, entry));
    return { meta, entries, stored: { records, meta: undefined } };
  }
}
