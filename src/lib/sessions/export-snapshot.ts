import { relinkOrphans, type SessionEntry } from "../messages/entries.ts";
import { readSettings, type SessionSettings } from "../agent/session-settings.ts";
import type { NewCall, SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import { newCallOf, type SessionSnapshot } from "./export-format.ts";
import { isPiHeader } from "./pi-session-file.ts";

/** What an export needs of an open session: its tree as it is in memory, unsaved entries included. */
export interface OpenSessionView {
  meta: SessionMeta;
  settings: SessionSettings;
  entries: readonly SessionEntry[];
  leafId: string | null;
}

/**
 * Everything an export writes of a session: the open session from memory (so entries not stored yet are
 * included), any other from storage; the recorded calls always from storage, where they are kept.
 */
export async function snapshotOf(
  store: SessionStore,
  id: string,
  open: OpenSessionView | undefined,
): Promise<SessionSnapshot | undefined> {
  let view = open;
  if (!view) {
    const loaded = await store.loadSession(id);
    if (!loaded) return undefined;
    view = {
      meta: loaded.meta,
      settings: readSettings(loaded.meta.settings),
      // As the transcript reads them: a record skipped as damaged leaves no orphan behind.
      entries: relinkOrphans(loaded.records.map((record) => record.entry)),
      leafId: loaded.meta.leafId,
    };
  }
  const { meta } = view;
  return {
    id: meta.id,
    title: meta.title,
    titleIsCustom: meta.titleIsCustom,
    createdAt: meta.createdAt,
    settings: view.settings,
    entries: view.entries,
    leafId: view.leafId,
    piHeader: isPiHeader(meta.piHeader) ? meta.piHeader : undefined,
    calls: await recordedCalls(store, id),
  };
}

/** A session's recorded calls with their bodies, in order; a call whose body is gone is left out. */
async function recordedCalls(store: SessionStore, id: string): Promise<NewCall[]> {
  const { calls } = await store.listCalls(id);
  const bodies = await Promise.all(calls.map((call) => store.readCallBody(id, call.seq)));
  return calls.flatMap((call, index) => {
    const body = bodies[index];
    return body ? [newCallOf(call, body)] : [];
  });
}
