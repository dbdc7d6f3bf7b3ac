import { createContext } from "svelte";
import {
  ChatSession,
  createSystemFact,
  type SessionDeps,
  type SessionInit,
} from "../agent/chat-session.svelte.ts";
import { createBranchSummary } from "../messages/factories.ts";
import type { ExportKind, ParsedImport } from "./export-format.ts";
import { ProxyConnection } from "../connection/proxy-connection.svelte.ts";
import { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { IdbSessionStore } from "../storage/idb-store.ts";
import type { SessionMeta } from "../storage/records.ts";
import type { SessionStore } from "../storage/session-store.ts";
import { SessionLocks, TabChannel, type SyncMessage } from "../storage/tab-sync.ts";

const CURRENT_KEY = "pi-playground:current-session";
const UNDO_DELETE_MS = 6_000;

export interface StorageInfo {
  usage: number;
  quota: number;
  persisted: boolean;
}

export interface PendingDelete {
  meta: SessionMeta;
  expiresAt: number;
}

/**
 * The playground around the sessions: storage, the model catalog, the session list and the session
 * that is open. Shared with components through context, never as a module singleton.
 */
export class Workspace {
  readonly catalog = new ModelCatalog();
  readonly connection: ProxyConnection;
  readonly #deps: SessionDeps;
  readonly #channel: TabChannel;

  #sessions = $state.raw<SessionMeta[]>([]);
  #current = $state.raw<ChatSession | undefined>(undefined);
  #storageWarning = $state<string | undefined>(undefined);
  #listWarnings = $state.raw<string[]>([]);
  #pendingDelete = $state.raw<PendingDelete | undefined>(undefined);
  #storageInfo = $state.raw<StorageInfo | undefined>(undefined);
  #switchBlocked = $state<string | undefined>(undefined);
  #listRefresh: ReturnType<typeof setTimeout> | undefined;
  #deleteTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(origin: string, store: SessionStore, storageWarning: string | undefined) {
    this.#channel = new TabChannel();
    this.connection = ProxyConnection.forPage(origin);
    this.#deps = {
      store,
      catalog: this.catalog,
      router: this.connection,
      channel: this.#channel,
      locks: new SessionLocks(),
      tabId: crypto.randomUUID(),
      onStored: () => this.#scheduleListRefresh(),
    };
    this.#deps.locks.holdTab(this.#deps.tabId);
    this.#storageWarning = storageWarning;
    this.#channel.subscribe((message) => void this.#onSync(message));
  }

  /** Open storage (falling back to memory when IndexedDB is unavailable) and the last session. */
  static async start(origin: string): Promise<Workspace> {
    let store: SessionStore;
    let warning: string | undefined;
    try {
      store = await IdbSessionStore.open();
    } catch (error) {
      const { MemorySessionStore } = await import("../storage/memory-store.ts");
      store = new MemorySessionStore();
      warning = `Sessions are kept in memory only and will be lost on reload: ${(error as Error).message}`;
    }
    const workspace = new Workspace(origin, store, warning);
    const catalogLoaded = workspace.connection.watch(() =>
      workspace.catalog.load(workspace.connection).then(() => workspace.#current?.refreshModel()),
    );
    await workspace.refreshList();
    const requested = readCurrentId();
    const known = workspace.#sessions.find((meta) => meta.id === requested) ?? workspace.#sessions[0];
    if (known) await workspace.openSession(known.id);
    if (!workspace.#current) await workspace.newSession();
    void catalogLoaded;
    // Sessions are worth keeping: ask the browser not to evict them (Chromium decides without a prompt);
    // the sessions panel shows the answer.
    if (store.kind === "indexeddb") void workspace.requestPersistence().catch(() => undefined);
    return workspace;
  }

  get store(): SessionStore {
    return this.#deps.store;
  }
  get sessions(): readonly SessionMeta[] {
    return this.#pendingDelete
      ? this.#sessions.filter((meta) => meta.id !== this.#pendingDelete?.meta.id)
      : this.#sessions;
  }
  get current(): ChatSession | undefined {
    return this.#current;
  }
  get storageWarning(): string | undefined {
    return this.#storageWarning;
  }
  /** Why the last attempt to leave the open session was refused, until a switch succeeds. */
  get switchBlocked(): string | undefined {
    return this.#switchBlocked;
  }
  get listWarnings(): readonly string[] {
    return this.#listWarnings;
  }
  get pendingDelete(): PendingDelete | undefined {
    return this.#pendingDelete;
  }

  async refreshList(): Promise<void> {
    try {
      const { sessions, warnings } = await this.#deps.store.listSessions();
      this.#sessions = sessions;
      this.#listWarnings = warnings;
      const current = this.#current;
      const stored = current ? sessions.find((meta) => meta.id === current.id) : undefined;
      if (current && stored) current.adoptMeta(stored);
    } catch (error) {
      this.#listWarnings = [`The session list could not be read: ${(error as Error).message}`];
    }
  }

  async newSession(
    init: SessionInit = {},
    { leavingDeleted = false } = {},
  ): Promise<ChatSession | undefined> {
    if (!leavingDeleted && !(await this.#mayLeaveCurrent())) return undefined;
    const session = await ChatSession.create(this.#deps, init);
    this.#switchTo(session, { discardPrevious: leavingDeleted });
    await this.refreshList();
    return session;
  }

  async openSession(id: string, { leavingDeleted = false } = {}): Promise<void> {
    if (this.#current?.id === id) return;
    if (!leavingDeleted && !(await this.#mayLeaveCurrent())) return;
    try {
      const session = await ChatSession.open(this.#deps, id);
      if (session) this.#switchTo(session, { discardPrevious: leavingDeleted });
    } catch (error) {
      this.#storageWarning = (error as Error).message;
    }
  }

  /** Hide the session at once and delete it for good only when the undo window has passed. */
  deleteSession(id: string): void {
    const meta = this.#sessions.find((candidate) => candidate.id === id);
    if (!meta) return;
    this.#commitPendingDelete();
    this.#pendingDelete = { meta, expiresAt: Date.now() + UNDO_DELETE_MS };
    this.#deleteTimer = setTimeout(() => this.#commitPendingDelete(), UNDO_DELETE_MS);
    if (this.#current?.id === id) {
      const next = this.sessions[0];
      if (next) void this.openSession(next.id, { leavingDeleted: true });
      else void this.newSession({}, { leavingDeleted: true });
    }
  }

  undoDelete(): void {
    clearTimeout(this.#deleteTimer);
    const pending = this.#pendingDelete;
    this.#pendingDelete = undefined;
    if (pending && !this.#current) void this.openSession(pending.meta.id);
  }

  #commitPendingDelete(): void {
    clearTimeout(this.#deleteTimer);
    const pending = this.#pendingDelete;
    if (!pending) return;
    this.#pendingDelete = undefined;
    void this.#deps.store
      .deleteSession(pending.meta.id)
      .then(() => {
        this.#channel.post({ type: "sessions" });
        return this.refreshList();
      })
      .catch((error: unknown) => {
        this.#storageWarning = `The session could not be deleted: ${(error as Error).message}`;
      });
  }

  async renameSession(id: string, title: string): Promise<void> {
    const trimmed = title.trim();
    if (!trimmed) return;
    try {
      const meta = await this.#deps.store.updateMeta(id, { title: trimmed, titleIsCustom: true });
      if (this.#current?.id === id) this.#current.adoptMeta(meta);
      this.#channel.post({ type: "meta", sessionId: id });
      await this.refreshList();
    } catch (error) {
      this.#storageWarning = `The session could not be renamed: ${(error as Error).message}`;
    }
  }

  /** A copy of a session, facts and settings included, under a new id. */
  async duplicateSession(id: string): Promise<void> {
    const loaded = await this.#deps.store.loadSession(id).catch((error: unknown) => {
      this.#storageWarning = `The session could not be read to copy it: ${(error as Error).message}`;
      return undefined;
    });
    if (!loaded) return;
    await this.newSession({
      title: `Copy of ${loaded.meta.title}`,
      facts: loaded.facts,
      settings: loaded.meta.settings,
    });
  }

  /** The file an export produces. The open session is exported from memory, so unsaved facts are included. */
  async exportSession(id: string, kind: ExportKind): Promise<{ fileName: string; text: string } | undefined> {
    const current = this.#current?.id === id ? this.#current : undefined;
    const loaded = current ? undefined : await this.#deps.store.loadSession(id);
    const title = current?.meta.title ?? loaded?.meta.title;
    const settings = current?.settings ?? loaded?.meta.settings;
    const messages = current ? [...current.facts] : loaded?.facts;
    if (title === undefined || !settings || !messages) return undefined;
    // Loaded on first use: exporting is rare, and the page should start small.
    const { exportFileName, exportSession } = await import("./export-format.ts");
    return {
      fileName: exportFileName(title, kind),
      text: exportSession({ title, settings, messages }, kind),
    };
  }

  /** Import a parsed file as a new session; an existing session is never overwritten. */
  async importSession(parsed: ParsedImport): Promise<ChatSession | undefined> {
    const facts =
      parsed.messages[0]?.role === "system" ? parsed.messages : [createSystemFact(), ...parsed.messages];
    return this.newSession({ title: parsed.title, facts, settings: parsed.settings });
  }

  /** Start a new session holding the current session's facts up to and including `factIndex`. */
  async fork(factIndex: number): Promise<void> {
    const origin = this.#current;
    if (!origin) return;
    await this.newSession({
      title: `Fork of ${origin.meta.title} at fact ${factIndex + 1}`,
      facts: origin.facts.slice(0, factIndex + 1),
      settings: { ...origin.settings, nextTurn: [] },
      forkedFrom: { sessionId: origin.id, title: origin.meta.title, factIndex },
    });
  }

  /**
   * Go back from a fork to where it branched off, leaving a branch summary there: pi's way of telling the
   * model, on the main line, what was tried on the branch.
   */
  async returnFromFork(summary: string): Promise<void> {
    const branch = this.#current;
    const origin = branch?.meta.forkedFrom;
    if (!branch || !origin) return;
    await this.openSession(origin.sessionId);
    const main = this.#current;
    if (!main || main.id !== origin.sessionId) {
      // Either the switch waits for unsaved messages (and says so), or the origin is gone.
      if (!this.#switchBlocked)
        this.#storageWarning = `The session this fork came from (${origin.title}) no longer exists.`;
      return;
    }
    if (summary.trim()) await main.inject(createBranchSummary(summary.trim(), branch.id), "append");
  }

  async refreshStorageInfo(): Promise<void> {
    const storage = globalThis.navigator?.storage;
    if (!storage) return;
    try {
      const [estimate, persisted] = await Promise.all([
        storage.estimate(),
        storage.persisted?.() ?? Promise.resolve(false),
      ]);
      this.#storageInfo = { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
    } catch {
      this.#storageInfo = undefined;
    }
  }

  /** Ask the browser not to evict this site's data under storage pressure; returns whether it agreed. */
  async requestPersistence(): Promise<boolean> {
    const granted = (await globalThis.navigator?.storage?.persist?.()) ?? false;
    await this.refreshStorageInfo();
    return granted;
  }

  get storageInfo(): StorageInfo | undefined {
    return this.#storageInfo;
  }

  /** Save the streaming reply before the page goes away. */
  onPageHide(): void {
    this.#current?.saveStreamingNow();
  }

  /** Titles and counts in the list follow stored writes, batched so a fast stream costs one read. */
  #scheduleListRefresh(): void {
    if (this.#listRefresh) return;
    this.#listRefresh = setTimeout(() => {
      this.#listRefresh = undefined;
      void this.refreshList();
    }, 300);
  }

  /**
   * Messages that could not be stored yet live only in the open session; leaving it would drop them. So
   * the switch waits until they are stored, and the person is told how to get there.
   */
  async #mayLeaveCurrent(): Promise<boolean> {
    const current = this.#current;
    // A run in progress ends first, so that its last reply is written (or known to be unsaved) now.
    if (current?.running) await current.settle();
    if (!current?.unsaved) return true;
    this.#switchBlocked = `“${current.meta.title}” has messages that are not stored yet. Export it, or free space and retry saving, before opening another session.`;
    return false;
  }

  #switchTo(session: ChatSession, { discardPrevious = false } = {}): void {
    this.#switchBlocked = undefined;
    const previous = this.#current;
    this.#current = session;
    if (previous && previous !== session) void previous.close({ discard: discardPrevious });
    writeCurrentId(session.id);
  }

  async #onSync(message: SyncMessage): Promise<void> {
    try {
      await this.#applySync(message);
    } catch (error) {
      this.#storageWarning = `A change made in another tab could not be read: ${(error as Error).message}`;
    }
  }

  async #applySync(message: SyncMessage): Promise<void> {
    const current = this.#current;
    switch (message.type) {
      case "written":
        if (current?.id === message.sessionId)
          await current.applyRemoteWrite(message.appended, message.replaced);
        // Another tab's run writes once per message: batch the list like our own writes.
        this.#scheduleListRefresh();
        return;
      case "meta":
        if (current?.id === message.sessionId) await current.applyRemoteMeta();
        await this.refreshList();
        return;
      case "running":
        if (current?.id === message.sessionId) current.setRunningElsewhere(message.running);
        return;
      case "sessions":
        await this.refreshList();
        return;
    }
  }
}

function readCurrentId(): string | undefined {
  try {
    return localStorage.getItem(CURRENT_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function writeCurrentId(id: string): void {
  try {
    localStorage.setItem(CURRENT_KEY, id);
  } catch {
    // Without localStorage the playground simply opens the most recent session next time.
  }
}

export const [getWorkspace, setWorkspace] = createContext<Workspace>();
