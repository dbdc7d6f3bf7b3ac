import type {
  LiveCall,
  LiveConnectionState,
  LiveConnectionSummary,
} from "../../shared/live/live-protocol.ts";
import { defaultSettings } from "../agent/session-settings.ts";
import { newSession } from "../agent/new-session.ts";
import type { SessionEntry } from "../messages/entries.ts";
import type { ModelRef } from "../models/model-ref.ts";
import { pathTo } from "../messages/entries.ts";
import { projectSession } from "../model-view/session-projection.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import type { SyncMessage } from "../storage/tab-sync.ts";
import { settingsFromPath } from "../sessions/import-session.ts";
import { readPiSession } from "../sessions/pi-session-file.ts";
import { readSessionTree, type RawEntry } from "../sessions/session-tree-read.ts";
import { liveCallRecord, liveTitle } from "./live-record.ts";
import { liveSessionId } from "./live-session-id.ts";

export interface LiveRecorderHost {
  store: SessionStore;
  /** How the page's other parts (this tab's workspace, other tabs) hear of what was written. */
  post: (message: SyncMessage) => void;
  /** A connection's whole state, from the server. */
  fetchState: (connection: string) => Promise<LiveConnectionState | undefined>;
  hasModel: (ref: ModelRef) => boolean;
  /** Something could not be recorded (storage full, say): said once per connection. */
  failed: (connection: string, error: Error) => void;
}

/** What this page knows it has stored of one connection. */
interface Recorded {
  sessionId: string;
  /** The entries of the stored session, by id (all of them: a live session only grows). */
  entries: Map<string, SessionEntry>;
  /** How many of the connection's entries (by the server's count) are stored. */
  entryCount: number;
  calls: Set<string>;
  meta: SessionMeta;
}

/**
 * Records live pi sessions into storage as ordinary sessions, entry by entry and call by call, as they
 * arrive; one tab records at a time (see LiveSessions). Entries are read with the code that imports pi's
 * session files, and an entry already stored is never stored again, so catching up after a reconnect,
 * a reload or a page that opened late only adds what is missing. Work on one connection is done in
 * order; a batch that does not continue what is stored (the page missed some) makes it read the whole
 * state again.
 */
export class LiveRecorder {
  readonly #host: LiveRecorderHost;
  readonly #recorded = new Map<string, Recorded>();
  readonly #chains = new Map<string, Promise<void>>();

  constructor(host: LiveRecorderHost) {
    this.#host = host;
  }

  /** The stored session of a connection, once it is recorded. */
  sessionOf(connection: string): string | undefined {
    return this.#recorded.get(connection)?.sessionId;
  }

  /** Everything a connection holds, compared with what is stored: what is missing is added. */
  sync(summary: Pick<LiveConnectionSummary, "id">): Promise<void> {
    return this.#enqueue(summary.id, async () => {
      const state = await this.#host.fetchState(summary.id);
      if (state) await this.#reconcile(state);
    });
  }

  /** New entries of a connection; when they do not continue what is stored, the whole state is read again. */
  entries(
    connection: string,
    from: number,
    entries: readonly unknown[],
    leafId: string | null,
  ): Promise<void> {
    return this.#enqueue(connection, async () => {
      const recorded = this.#recorded.get(connection);
      if (!recorded || recorded.entryCount !== from) {
        const state = await this.#host.fetchState(connection);
        if (state) await this.#reconcile(state);
        return;
      }
      await this.#append(recorded, entries, leafId);
      recorded.entryCount = from + entries.length;
    });
  }

  call(connection: string, call: LiveCall): Promise<void> {
    return this.#enqueue(connection, async () => {
      const recorded = this.#recorded.get(connection);
      if (!recorded) {
        const state = await this.#host.fetchState(connection);
        if (state) await this.#reconcile(state);
        return;
      }
      await this.#recordCall(recorded, call);
    });
  }

  forget(connection: string): void {
    this.#recorded.delete(connection);
  }

  #enqueue(connection: string, work: () => Promise<void>): Promise<void> {
    const next = (this.#chains.get(connection) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => this.#host.failed(connection, error as Error));
    this.#chains.set(connection, next);
    return next;
  }

  async #reconcile(state: LiveConnectionState): Promise<void> {
    const { store } = this.#host;
    const sessionId = liveSessionId(state.header);
    const meta = await store.getMeta(sessionId);
    if (!meta) {
      const created = await this.#create(state, sessionId);
      this.#recorded.set(state.id, {
        sessionId,
        entries: new Map(created.entries.map((entry) => [entry.id, entry])),
        entryCount: state.entries.length,
        calls: new Set(),
        meta: created.meta,
      });
    } else {
      const loaded = await store.loadSession(sessionId);
      const { calls } = await store.listCalls(sessionId);
      const recorded: Recorded = {
        sessionId,
        entries: new Map((loaded?.records ?? []).map((record) => [record.entry.id, record.entry])),
        entryCount: 0,
        calls: new Set(calls.map((call) => call.id)),
        meta: loaded?.meta ?? meta,
      };
      this.#recorded.set(state.id, recorded);
      await this.#append(recorded, state.entries, state.leafId);
      recorded.entryCount = state.entries.length;
    }
    const recorded = this.#recorded.get(state.id);
    if (!recorded) return;
    for (const call of state.calls) await this.#recordCall(recorded, call);
  }

  /** A new stored session from a connection's state: read as an imported pi file is, header and all. */
  async #create(
    state: LiveConnectionState,
    sessionId: string,
  ): Promise<{ meta: SessionMeta; entries: SessionEntry[] }> {
    const raws: RawEntry[] = [state.header, ...state.entries].map((value, index) => ({
      line: index + 1,
      value,
    }));
    const read = readPiSession(raws);
    const path = projectSession(pathTo(read.entries, state.leafId ?? read.leafId));
    const { settings } = settingsFromPath(
      defaultSettings(),
      path.model,
      path.thinkingLevel,
      this.#host.hasModel,
    );
    const { meta, entries } = newSession(
      {
        title: liveTitle(state.about, read.entries),
        titleIsCustom: false,
        entries: read.entries,
        leafId: read.entries.some((entry) => entry.id === state.leafId) ? state.leafId : read.leafId,
        settings,
        piHeader: read.header,
      },
      { id: sessionId },
    );
    const created = await this.#host.store.createSession(meta, entries);
    this.#host.post({ type: "sessions" });
    return { meta: created.meta, entries };
  }

  /** Entries not stored yet, read against those that are, appended in one write. */
  async #append(recorded: Recorded, values: readonly unknown[], leafId: string | null): Promise<void> {
    const known = recorded.entries;
    const raws: RawEntry[] = [];
    values.forEach((value, index) => {
      const id = (value as { id?: unknown }).id;
      if (typeof id !== "string" || !known.has(id)) raws.push({ line: index + 1, value });
    });
    const moveLeaf = leafId !== null && leafId !== recorded.meta.leafId;
    if (raws.length === 0 && !moveLeaf) return;
    const read = readSessionTree(raws, { knownIds: new Set(known.keys()) });
    for (const entry of read.entries) known.set(entry.id, entry);
    const leaf = leafId !== null && known.has(leafId) ? leafId : undefined;
    if (read.entries.length === 0 && (leaf === undefined || leaf === recorded.meta.leafId)) return;
    const result = await this.#host.store.write(recorded.sessionId, {
      append: read.entries,
      ...(leaf !== undefined ? { leafId: leaf } : {}),
    });
    recorded.meta = result.meta;
    this.#host.post({ type: "written", sessionId: recorded.sessionId, meta: result.meta });
    await this.#retitle(recorded);
  }

  /** pi named the session, or its first prompt arrived: the title follows, unless someone renamed it here. */
  async #retitle(recorded: Recorded): Promise<void> {
    if (recorded.meta.titleIsCustom) return;
    const header = recorded.meta.piHeader;
    const cwd = typeof header?.cwd === "string" ? header.cwd : "";
    const title = liveTitle({ cwd }, [...recorded.entries.values()]);
    if (title === recorded.meta.title) return;
    const meta = await this.#host.store.updateMeta(recorded.sessionId, { title, titleIsCustom: false });
    recorded.meta = meta;
    this.#host.post({ type: "meta", sessionId: recorded.sessionId, meta });
  }

  async #recordCall(recorded: Recorded, call: LiveCall): Promise<void> {
    if (recorded.calls.has(call.id)) return;
    recorded.calls.add(call.id);
    const { meta } = await this.#host.store.appendCall(
      recorded.sessionId,
      liveCallRecord(call, recorded.entries),
    );
    this.#host.post({ type: "meta", sessionId: recorded.sessionId, meta });
  }
}
