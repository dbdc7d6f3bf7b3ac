import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { SessionInit } from "../agent/new-session.ts";
import type { SessionSettings } from "../agent/session-settings.ts";
import { sessionToolsRead } from "../agent/tools/tool-definitions.ts";
import { messageEntry, newEntryId, type SessionEntry } from "../messages/entries.ts";
import type { ModelRef } from "../models/model-ref.ts";
import type { NewCall, SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import { isThinkingLevel } from "../../shared/enums.ts";
import { pathEndOf } from "./import-readers.ts";
import { withSystemEntry, type ParsedImport } from "./parsed-import.ts";

/** A parsed file as a new session: what to create it from, and what to tell the person. */
export interface ImportPlan {
  init: SessionInit;
  notes: string[];
  /** The system message put first (a flat file has none): its entries are `withSystemEntry` of the file's. */
  system?: SessionEntry;
}

/**
 * The session a parsed file becomes. A pi session file brings its model and thinking level: the last ones
 * on the path to its leaf, as pi reads them, become the session's settings where the model is one this
 * playground can use; otherwise the session keeps its default model, and a note says so.
 */
export function planImport(
  parsed: ParsedImport,
  { hasModel, systemFact }: { hasModel: (ref: ModelRef) => boolean; systemFact: () => AgentMessage },
): ImportPlan {
  const notes = [...parsed.notes];
  // The file's tools are read for their shape; what had to be left out is said.
  const tools = sessionToolsRead(parsed.settings.tools);
  if (tools.problems.length > 0) notes.push(`some of its tools were left out (${tools.problems.join("; ")})`);
  let settings = tools.problems.length > 0 ? { ...parsed.settings, tools: tools.tools } : parsed.settings;
  let entries = parsed.entries;
  let leafId = parsed.leafId;
  let system: SessionEntry | undefined;
  if (parsed.addSystemFact) {
    const ids = new Set(entries.map((entry) => entry.id));
    system = messageEntry(
      systemFact(),
      null,
      newEntryId((id) => ids.has(id)),
    );
    entries = withSystemEntry(entries, system);
    leafId ??= system.id;
  }
  if (parsed.source === "pi-session") {
    const path = parsed.pathEnd ?? pathEndOf(entries, leafId);
    const applied = settingsFromPath(settings, path.model, path.thinkingLevel, hasModel);
    settings = applied.settings;
    notes.push(...applied.notes);
  }
  return {
    init: {
      title: parsed.title,
      titleIsCustom: parsed.titleIsCustom,
      entries,
      leafId,
      settings,
      ...(parsed.piHeader ? { piHeader: parsed.piHeader } : {}),
    },
    notes,
    ...(system ? { system } : {}),
  };
}

/** The model and thinking level a path ends with, applied to settings where this playground has them. */
export function settingsFromPath(
  settings: SessionSettings,
  model: { provider: string; modelId: string } | null,
  thinkingLevel: string,
  hasModel: (ref: ModelRef) => boolean,
): { settings: SessionSettings; notes: string[] } {
  const notes: string[] = [];
  let next = settings;
  if (model) {
    const ref = { provider: model.provider, id: model.modelId };
    if (hasModel(ref)) next = { ...next, model: ref };
    else
      notes.push(
        `the file's model, ${ref.provider}/${ref.id}, is not available here: the session uses ${next.model.provider}/${next.model.id} (pick another in the model picker)`,
      );
  }
  if (isThinkingLevel(thinkingLevel)) next = { ...next, thinkingLevel };
  else
    notes.push(
      `the file's thinking level, "${thinkingLevel}", is not one this version knows: the session uses "${next.thinkingLevel}"`,
    );
  return { settings: next, notes };
}

/** Store a file's recorded calls under the new session, in order; the session's metadata after the last. */
export async function importCalls(
  store: SessionStore,
  sessionId: string,
  calls: readonly NewCall[],
  onProgress?: (done: number, total: number) => void,
): Promise<SessionMeta | undefined> {
  let meta: SessionMeta | undefined;
  for (const [index, call] of calls.entries()) {
    meta = (await store.appendCall(sessionId, call)).meta;
    onProgress?.(index + 1, calls.length);
  }
  return meta;
}

/** "Imported “x”: a; b." — the notes of an import, as one notice. */
export function importNotice(title: string, notes: readonly string[]): string {
  return `Imported “${title}”: ${notes.join("; ")}.`;
}
