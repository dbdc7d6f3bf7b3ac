import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Notices } from "../notices/notices.svelte.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import type { SessionWriter } from "../storage/session-writer.ts";
import type { SessionLocks, TabChannel } from "../storage/tab-sync.ts";
import type { SessionEvents } from "./session-events.ts";
import type { SessionMetaState } from "./session-meta.svelte.ts";
import type { Transcript } from "./transcript.svelte.ts";

export interface ReplicaHost {
  store: SessionStore;
  sessionId: string;
  /** The session's metadata as this tab knows it; the replica is its one writer. */
  meta: SessionMetaState;
  locks: SessionLocks;
  channel: TabChannel;
  tabId: string;
  notices: Notices;
  transcript: Transcript;
  writer: SessionWriter;
  /** The reply this tab is streaming, if any: its in-flight copy is kept while it streams. */
  reply: { readonly active: boolean };
  /**
   * Where the replica hears that this tab stored something (entries, settings, a call record) and says
   * that it adopted another tab's metadata.
   */
  events: SessionEvents;
  /** A write of this tab was stored: the sessions list takes the new metadata from it. */
  onStored?: (meta: SessionMeta) => void;
}

const INTERRUPTED =
  "Interrupted: the page was closed or reloaded while this reply was streaming. The text received until then is kept.";

/**
 * This tab's copy of a session that other tabs may write too. Tabs announce their writes with the
 * session's new metadata; this tab reads what it lacks by comparing revisions (one number) and reading
 * only the newer entry versions. It keeps the session's metadata as last stored here or announced by
 * another tab (its one writer), knows whether another tab is running the session, and brings back, as
 * interrupted, a reply that a closed or crashed tab left streaming.
 */
export class Replica {
  readonly #host: ReplicaHost;
  #runningElsewhere = $state(false);
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  readonly #watch = new AbortController();
  /** A reply of ours is final (or was restored): its in-flight copy goes once everything is stored. */
  #inflightToClear = false;
  /** A run of this tab owns the transcript: what other tabs write meanwhile is read when it ends. */
  #runActive = false;
  #missedWhileRunning = false;

  constructor(host: ReplicaHost) {
    this.#host = host;
    const { events } = host;
    events.on("written", ({ meta }) => {
      this.announce(meta, "written");
      this.clearInflightIfDone();
    });
    events.on("settingsStored", ({ meta }) => this.announce(meta, "meta"));
    events.on("callRecorded", ({ meta }) => this.announce(meta, "meta"));
  }

  /** The session's metadata: title, settings, revision and counts, as last stored or announced. */
  get meta(): SessionMeta {
    return this.#host.meta.current;
  }

  /**
   * A write of this tab was stored ("written": entries; "meta": settings or a recorded call): its
   * metadata is the session's now, and the other tabs and the sessions list hear of it.
   */
  announce(meta: SessionMeta, kind: "written" | "meta"): void {
    this.#host.meta.replace(meta);
    const { channel, sessionId } = this.#host;
    if (kind === "written") channel.post({ type: "written", sessionId, meta });
    else channel.post({ type: "meta", sessionId, meta });
    this.#host.onStored?.(meta);
  }

  /** Another tab changed this session's settings or title (or recorded calls): take its metadata. */
  adoptMeta(meta: SessionMeta): void {
    if (this.#closed) return;
    const previous = this.meta;
    this.#host.meta.replace(meta);
    this.#host.events.emit("metaAdopted", { meta, previous });
  }

  /** Another tab wrote to this session (its new metadata is announced): read what it wrote. */
  applyRemoteWrite(meta?: SessionMeta): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (meta && meta.revision <= this.#host.writer.revision) return Promise.resolve();
    // A running turn owns the transcript; what others wrote is read when it ends.
    if (this.#runActive) {
      this.#missedWhileRunning = true;
      return Promise.resolve();
    }
    return this.catchUp();
  }

  /** A run of this tab starts: until it ends, what other tabs write waits (see `applyRemoteWrite`). */
  runStarted(): void {
    this.#runActive = true;
  }

  /** The run ended: read what other tabs wrote meanwhile (called under the session's lock when it holds it). */
  runEnded(): Promise<void> {
    this.#runActive = false;
    if (!this.#missedWhileRunning) return Promise.resolve();
    this.#missedWhileRunning = false;
    return this.catchUp();
  }

  /** Another tab is running this session; this one shows its writes but does not start its own. */
  get runningElsewhere(): boolean {
    return this.#runningElsewhere;
  }

  /** Read what other tabs stored since this tab last looked. One at a time: each builds on the previous. */
  catchUp(): Promise<void> {
    this.#chain = this.#chain
      .then(() => this.#catchUpNow())
      .catch((error: unknown) => {
        this.#host.notices.post({
          key: `replica:${this.#host.sessionId}`,
          severity: "warning",
          source: "tabs",
          text: `A change made in another tab could not be read: ${(error as Error).message}`,
        });
      });
    return this.#chain;
  }

  async #catchUpNow(): Promise<void> {
    if (this.#closed) return;
    const { store, sessionId, transcript, writer } = this.#host;
    if (!writer.created) return;
    const changes = await store.changesSince(sessionId, writer.revision);
    if (!changes || changes.meta.revision <= writer.revision) return;
    // Everything newer than our revision was written by another tab; our unsaved entries stay pending.
    transcript.adopt(changes.records, changes.meta.leafId);
    writer.adoptRemote(changes.records, changes.meta);
    this.adoptMeta(changes.meta);
    if (changes.warnings.length > 0)
      this.#host.notices.post({
        key: `replica-skipped:${sessionId}`,
        severity: "warning",
        source: "storage",
        text: changes.warnings.join(" "),
      });
  }

  /**
   * A reply still in flight from a tab that is gone (closed or crashed mid-run) comes back as
   * interrupted, before anything new. Ours is never restored: it is in our facts, final or not.
   * Called while this tab holds the session's lock.
   */
  async restoreInterrupted(): Promise<void> {
    const { store, sessionId, locks, tabId, transcript } = this.#host;
    if (this.#inflightToClear) return;
    const inflight = await store.readInflight(sessionId);
    if (!inflight || inflight.tabId === tabId) return;
    if (inflight.tabId && (await locks.isTabAlive(inflight.tabId))) return;
    const message: AgentMessage = inflight.message;
    if (message.role !== "assistant") return;
    this.#inflightToClear = true;
    transcript.append([{ ...message, stopReason: "aborted", errorMessage: INTERRUPTED }]);
  }

  /** Our streaming reply became a fact; its in-flight copy can go once that fact is stored. */
  replyFinal(): void {
    this.#inflightToClear = true;
  }

  /** Everything is stored: drop the in-flight copy that a final or restored reply made obsolete. */
  clearInflightIfDone(): void {
    if (!this.#inflightToClear || this.#host.writer.pending || this.#host.reply.active) return;
    this.#inflightToClear = false;
    void this.#host.store.clearInflight(this.#host.sessionId).catch(() => undefined);
  }

  setRunningElsewhere(running: boolean): void {
    this.#runningElsewhere = running;
    if (running) this.#watchOtherTab();
  }

  /**
   * The other tab may be closed mid-run without saying so; its lock is released then, so wait for the
   * lock to come free rather than for a message that may never arrive.
   */
  #watchOtherTab(): void {
    void this.#host.locks
      .whenFree(this.#host.sessionId, this.#watch.signal)
      .then((free) => {
        if (free && !this.#closed) this.#runningElsewhere = false;
      })
      .catch(() => {
        // Without a way to ask, assume the other tab is done rather than block this one for good.
        if (!this.#closed) this.#runningElsewhere = false;
      });
  }

  close(): void {
    this.#closed = true;
    this.#watch.abort();
  }
}
