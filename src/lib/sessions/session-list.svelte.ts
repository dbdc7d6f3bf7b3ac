import type { Notices } from "../notices/notices.svelte.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import type { TabChannel } from "../storage/tab-sync.ts";

export const UNDO_DELETE_MS = 6_000;

export interface PendingDelete {
  meta: SessionMeta;
  expiresAt: number;
}

export interface SessionListHost {
  store: SessionStore;
  channel: TabChannel;
  notices: Notices;
}

/**
 * The sessions the sidebar lists: their metadata only, newest first. Writes report their new metadata
 * (ours directly, other tabs' in their announcements), so the list follows them without reading the
 * store again; it reads the whole list only at start and when sessions appear or disappear.
 */
export class SessionList {
  readonly #host: SessionListHost;
  #sessions = $state.raw<SessionMeta[]>([]);
  #pendingDelete = $state.raw<PendingDelete | undefined>(undefined);
  #deleteTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: SessionListHost) {
    this.#host = host;
  }

  /** The sessions to show: a session waiting to be deleted (undo is still possible) is hidden. */
  get sessions(): readonly SessionMeta[] {
    const pending = this.#pendingDelete;
    return pending ? this.#sessions.filter((meta) => meta.id !== pending.meta.id) : this.#sessions;
  }

  get pendingDelete(): PendingDelete | undefined {
    return this.#pendingDelete;
  }

  find(id: string): SessionMeta | undefined {
    return this.#sessions.find((meta) => meta.id === id);
  }

  /** Read the whole list (at start, and when another tab created or deleted a session). */
  async refresh(): Promise<void> {
    try {
      const { sessions, warnings } = await this.#host.store.listSessions();
      this.#sessions = sessions;
      if (warnings.length > 0)
        this.#host.notices.post({
          key: "list",
          severity: "warning",
          source: "sessions",
          text: warnings.join(" "),
        });
      else this.#host.notices.dismiss("list");
    } catch (error) {
      this.#host.notices.post({
        key: "list",
        severity: "error",
        source: "sessions",
        text: `The session list could not be read: ${(error as Error).message}`,
      });
    }
  }

  /** A session's metadata changed (a write of this tab or another): move it to its place, no store read. */
  upsert(meta: SessionMeta): void {
    const rest = this.#sessions.filter((candidate) => candidate.id !== meta.id);
    const index = rest.findIndex((candidate) => candidate.updatedAt <= meta.updatedAt);
    this.#sessions = index === -1 ? [...rest, meta] : [...rest.slice(0, index), meta, ...rest.slice(index)];
  }

  async rename(id: string, title: string): Promise<SessionMeta | undefined> {
    const trimmed = title.trim();
    if (!trimmed) return undefined;
    try {
      const meta = await this.#host.store.updateMeta(id, { title: trimmed, titleIsCustom: true });
      this.upsert(meta);
      this.#host.channel.post({ type: "meta", sessionId: id, meta });
      return meta;
    } catch (error) {
      this.#host.notices.post({
        key: `rename:${id}`,
        severity: "error",
        source: "sessions",
        text: `The session could not be renamed: ${(error as Error).message}`,
      });
      return undefined;
    }
  }

  /** Hide the session at once and delete it for good only when the undo window has passed. */
  markDeleted(meta: SessionMeta): void {
    this.commitPendingDelete();
    this.#pendingDelete = { meta, expiresAt: Date.now() + UNDO_DELETE_MS };
    this.#deleteTimer = setTimeout(() => this.commitPendingDelete(), UNDO_DELETE_MS);
  }

  /** Bring back the session waiting to be deleted; returns it. */
  undoDelete(): SessionMeta | undefined {
    clearTimeout(this.#deleteTimer);
    const pending = this.#pendingDelete;
    this.#pendingDelete = undefined;
    return pending?.meta;
  }

  commitPendingDelete(): void {
    clearTimeout(this.#deleteTimer);
    const pending = this.#pendingDelete;
    if (!pending) return;
    this.#pendingDelete = undefined;
    const id = pending.meta.id;
    void this.#host.store
      .deleteSession(id)
      .then(() => {
        this.#sessions = this.#sessions.filter((meta) => meta.id !== id);
        this.#host.channel.post({ type: "sessions" });
      })
      .catch((error: unknown) => {
        this.#host.notices.post({
          key: `delete:${id}`,
          severity: "error",
          source: "sessions",
          text: `The session could not be deleted: ${(error as Error).message}`,
        });
      });
  }
}
