import type { ModelCatalog } from "../models/model-catalog.svelte.ts";
import type { Notices } from "../notices/notices.svelte.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import type { WriterStatus } from "../storage/session-writer.ts";
import type { SessionLocks, TabChannel } from "../storage/tab-sync.ts";
import type { CallPreferences } from "./call-preferences.svelte.ts";
import type { StreamRouter } from "./stream-route.ts";

/** A session as the storage notices name it, and the way they offer to try saving it again. */
export interface StoringSession {
  readonly id: string;
  readonly meta: SessionMeta;
  saveNow(): Promise<void>;
}

/** What every session needs from the app around it. */
export interface SessionDeps {
  store: SessionStore;
  catalog: ModelCatalog;
  /** Where each request goes: a proxy, or the offline models answered in the page. */
  router: StreamRouter;
  channel: TabChannel;
  locks: SessionLocks;
  notices: Notices;
  /** This page's id: marks the reply it streams, so other tabs know whose it is. */
  tabId: string;
  /** A write of this session was stored: the sessions list takes the new metadata from it. */
  onStored?: (meta: SessionMeta) => void;
  /** How storing this session goes (what is unsaved, and the last failure), for the storage notices. */
  onStorageStatus?: (session: StoringSession, status: WriterStatus) => void;
  /** The page's choices for model calls (pause before each, Mirror's pace); defaults when absent. */
  preferences?: CallPreferences;
  /**
   * Why a session is read-only in the page, if it is: a live pi coding agent writes its facts. Read
   * reactively, so the session follows when pi connects or goes.
   */
  live?: (sessionId: string) => string | undefined;
  /** The session is shown from an exported file (read-only, its reason from `live`): nothing is run. */
  exported?: boolean;
}
