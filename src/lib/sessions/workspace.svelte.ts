import { createContext } from "svelte";
import { ChatSession } from "../agent/chat-session.svelte.ts";
import type { SessionDeps, StoringSession } from "../agent/session-deps.ts";
import type { SessionInit } from "../agent/new-session.ts";
import { CallPreferences } from "../agent/call-preferences.svelte.ts";
import { ProxyConnection } from "../connection/proxy-connection.svelte.ts";
import { readSettings } from "../agent/session-settings.ts";
import { loadMessageKinds } from "../messages/kinds/loaded.ts";
import { loadValidators } from "../messages/validators.ts";
import { createBranchSummary } from "../messages/factories.ts";
import { ModelCatalog } from "../models/model-catalog.svelte.ts";
import { Notices } from "../notices/notices.svelte.ts";
import { IdbSessionStore } from "../storage/idb-store.ts";
import { useMemoryKeyValueStore } from "../storage/kv.ts";
import type { EntryRecord, SessionMeta } from "../storage/records.ts";
import { pathTo, relinkOrphans } from "../messages/entries.ts";
import { projectSession } from "../model-view/session-projection.ts";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { CreateOptions, SessionStore } from "../storage/session-store.ts";
import type { WriterStatus } from "../storage/session-writer.ts";
import type { SessionLocks, SyncMessage, TabChannel } from "../storage/tab-sync.ts";
import { downloadText } from "./download.ts";
import type { ExportKind } from "./export-format.ts";
import type { ParsedImport } from "./parsed-import.ts";
import type { ImportStorer } from "./file-import.ts";
import { SessionList } from "./session-list.svelte.ts";
import { StorageHealth } from "./storage-health.svelte.ts";
import { LiveSessions } from "../live/live-sessions.svelte.ts";

const CURRENT_KEY = "pi-playground:current-session";

export interface StartOptions {
  /** Where storage comes from; IndexedDB by default, with the in-memory store when it cannot be opened. */
  openStore?: (hooks: { onVersionChange: () => void; onBlocked: () => void }) => Promise<SessionStore>;
  reload?: () => void;
}

/** A workspace that only shows one session (an exported HTML file): no storage, no network, no writing. */
export interface ViewerOptions {
  /** Why the session cannot be changed, shown where the composer would be. */
  readOnlyReason: string;
}

/**
 * The playground around the sessions: storage, the model catalog, the session list and the session that
 * is open, and moving between sessions (new, open, duplicate, import, fork and return). Shared with
 * components through context, never as a module singleton.
 */
export class Workspace {
  readonly catalog = new ModelCatalog();
  readonly notices: Notices;
  readonly list: SessionList;
  readonly health: StorageHealth;
  /** Where requests go: the page's own proxy, one elsewhere, or the offline models in the page. */
  readonly connection: ProxyConnection;
  /** Pause before each model call, and the offline models' pace: for every session of this page. */
  readonly callPreferences = new CallPreferences();
  /** The pi coding agents connected to this playground, recorded as sessions while they run. */
  readonly live: LiveSessions;
  readonly #deps: SessionDeps;
  readonly #channel: TabChannel;
  #current = $state.raw<ChatSession | undefined>(undefined);

  private constructor(
    origin: string,
    store: SessionStore,
    notices: Notices,
    health: StorageHealth,
    tabs: { channel: TabChannel; locks: SessionLocks },
    viewer?: ViewerOptions,
  ) {
    this.notices = notices;
    this.#channel = tabs.channel;
    this.health = health;
    this.list = new SessionList({ store, channel: this.#channel, notices });
    this.connection = viewer ? ProxyConnection.offline(origin) : ProxyConnection.forPage(origin);
    this.live = new LiveSessions({
      access: () => this.connection.access,
      refused: () => void this.connection.reconnect(),
      store,
      notices,
      hasModel: (ref) => this.catalog.find(ref) !== undefined,
    });
    this.#deps = {
      store,
      catalog: this.catalog,
      router: this.connection,
      channel: this.#channel,
      locks: tabs.locks,
      notices,
      tabId: crypto.randomUUID(),
      onStored: (meta) => this.list.upsert(meta),
      onStorageStatus: (session, status) => void this.#reportUnsaved(session, status),
      preferences: this.callPreferences,
      live: viewer ? () => viewer.readOnlyReason : (sessionId) => this.live.readOnlyReason(sessionId),
      ...(viewer ? { exported: true } : {}),
    };
    this.#deps.locks.holdTab(this.#deps.tabId);
    this.#channel.subscribe((message) => void this.#onSync(message));
  }

  /** Open storage (falling back to memory when IndexedDB is unavailable) and the last session. */
  static async start(origin: string, options: StartOptions = {}): Promise<Workspace> {
    const notices = new Notices();
    const reload = options.reload ?? (() => globalThis.location?.reload());
    // Storage reports (an upgrade blocked by an older tab, say) can come while it opens.
    const health = new StorageHealth(notices);
    const hooks = {
      onVersionChange: () => health.versionChanged(reload),
      onBlocked: () => health.upgradeBlocked(),
    };
    // The validators and the message kinds load while storage opens: every read after this point checks
    // what it reads, and every fact shown has its kind.
    const validatorsLoaded = Promise.all([loadValidators(), loadMessageKinds()]);
    validatorsLoaded.catch(() => undefined);
    // So does the tabs' coordination, which nothing needs before a session opens (kept out of the
    // page's first chunk).
    const tabSyncLoaded = import("../storage/tab-sync.ts");
    tabSyncLoaded.catch(() => undefined);
    let store: SessionStore;
    try {
      store = await (options.openStore ?? ((open) => IdbSessionStore.open(open)))(hooks);
    } catch (error) {
      const { MemorySessionStore } = await import("../storage/memory-store.ts");
      store = new MemorySessionStore();
      useMemoryKeyValueStore();
      health.fellBackToMemory((error as Error).message);
    }
    await validatorsLoaded;
    const { SessionLocks, TabChannel } = await tabSyncLoaded;
    notices.dismiss("storage:blocked");
    health.opened(store.kind);
    const workspace = new Workspace(origin, store, notices, health, {
      channel: new TabChannel(),
      locks: new SessionLocks(),
    });
    const catalogLoaded = workspace.connection.watch(() => workspace.catalog.load(workspace.connection));
    // Live pi sessions come from the page's server: read again whenever the page uses another.
    void workspace.connection.watch(() => workspace.live.start());
    await workspace.list.refresh();
    const requested = readCurrentId();
    const known = workspace.list.find(requested ?? "") ?? workspace.list.sessions[0];
    if (known) await workspace.openSession(known.id);
    if (!workspace.#current) await workspace.newSession();
    void catalogLoaded;
    void workspace.callPreferences.restore();
    // Sessions are worth keeping: ask the browser not to evict them (Chromium decides without a prompt);
    // the sessions panel shows the answer.
    if (store.kind === "indexeddb") void workspace.health.requestPersistence().catch(() => undefined);
    return workspace;
  }

  /**
   * A workspace that shows one session read-only, as an exported HTML file does: the session lives in
   * memory, nothing asks the network (the offline models' catalog answers in the page), and the composer
   * gives way to `readOnlyReason`.
   */
  static async view(parsed: ParsedImport, fileName: string, viewer: ViewerOptions): Promise<Workspace> {
    const [{ MemorySessionStore }, { SessionLocks, TabChannel }] = await Promise.all([
      import("../storage/memory-store.ts"),
      import("../storage/tab-sync.ts"),
      loadValidators(),
      loadMessageKinds(),
    ]);
    useMemoryKeyValueStore();
    const notices = new Notices();
    const health = new StorageHealth(notices);
    const workspace = new Workspace(
      globalThis.location?.href ?? "",
      new MemorySessionStore(),
      notices,
      health,
      // A channel no other page listens on: another exported file open in the browser is not this one.
      { channel: new TabChannel(`pi-playground-viewer-${crypto.randomUUID()}`), locks: new SessionLocks() },
      viewer,
    );
    // The session's model is looked up in the catalog, which the offline models fill without a request.
    await workspace.connection.watch(() => workspace.catalog.load(workspace.connection));
    await workspace.importSession(parsed, fileName);
    return workspace;
  }

  get store(): SessionStore {
    return this.#deps.store;
  }
  get sessions(): readonly SessionMeta[] {
    return this.list.sessions;
  }
  get current(): ChatSession | undefined {
    return this.#current;
  }
  /** How many sessions have been chosen (opened or made): an open shows its session only if none was since. */
  #choices = 0;

  async newSession(
    init: SessionInit = {},
    { leavingDeleted = false, ...create }: { leavingDeleted?: boolean } & CreateOptions = {},
  ): Promise<ChatSession | undefined> {
    if (!leavingDeleted && !(await this.#mayLeaveCurrent())) return undefined;
    // A session made is shown, whatever was chosen meanwhile: it was asked for, and its maker goes on with it.
    this.#choices++;
    const session = await ChatSession.create(this.#deps, init, create);
    this.#switchTo(session, { discardPrevious: leavingDeleted });
    return session;
  }

  async openSession(id: string, { leavingDeleted = false } = {}): Promise<void> {
    if (this.#current?.id === id) return;
    if (!leavingDeleted && !(await this.#mayLeaveCurrent())) return;
    const choice = ++this.#choices;
    try {
      const session = await ChatSession.open(this.#deps, id);
      // Another session was chosen while this one opened (a large one opens over many tasks): that one
      // stays shown, and this one is let go.
      if (session && choice !== this.#choices) void session.close();
      else if (session) this.#switchTo(session, { discardPrevious: leavingDeleted });
    } catch (error) {
      this.notices.post({
        key: `open:${id}`,
        severity: "error",
        source: "sessions",
        text: (error as Error).message,
      });
    }
  }

  /** Hide the session at once and delete it for good only when the undo window has passed. */
  deleteSession(id: string): void {
    const meta = this.list.find(id);
    if (!meta) return;
    this.list.markDeleted(meta);
    if (this.#current?.id === id) {
      const next = this.list.sessions[0];
      if (next) void this.openSession(next.id, { leavingDeleted: true });
      else void this.newSession({}, { leavingDeleted: true });
    }
  }

  undoDelete(): void {
    const restored = this.list.undoDelete();
    if (restored && !this.#current) void this.openSession(restored.id);
  }

  async renameSession(id: string, title: string): Promise<void> {
    const meta = await this.list.rename(id, title);
    if (meta && this.#current?.id === id) this.#current.adoptMeta(meta);
  }

  /** A copy of a session, facts and settings included, under a new id. */
  async duplicateSession(id: string): Promise<void> {
    const loaded = await this.#deps.store.loadSession(id).catch((error: unknown) => {
      this.notices.post({
        key: `duplicate:${id}`,
        severity: "error",
        source: "sessions",
        text: `The session could not be read to copy it: ${(error as Error).message}`,
      });
      return undefined;
    });
    if (!loaded) return;
    const current = this.#current?.id === id ? this.#current : undefined;
    await this.newSession({
      title: `Copy of ${loaded.meta.title}`,
      facts: current ? current.facts : pathMessages(loaded.records, loaded.meta.leafId),
      settings: readSettings(loaded.meta.settings),
    });
  }

  /**
   * The file an export produces: the whole tree, and in the playground's format the recorded calls too. The
   * open session is exported from memory, so unsaved entries are included. What the file cannot carry is
   * said in a notice.
   */
  async exportSession(id: string, kind: ExportKind): Promise<{ fileName: string; text: string } | undefined> {
    const current = this.#current?.id === id ? this.#current : undefined;
    // Loaded on first use: exporting is rare, and the page should start small.
    const [{ exportFileName, exportSession }, { snapshotOf }] = await Promise.all([
      import("./export-format.ts"),
      import("./export-snapshot.ts"),
    ]);
    const snapshot = await snapshotOf(this.#deps.store, id, current);
    if (!snapshot) return undefined;
    const { text, notes } = exportSession(snapshot, kind);
    this.notices.clearTransient();
    if (notes.length > 0)
      this.notices.post({
        key: `export:${id}`,
        severity: "info",
        source: "sessions",
        text: `Exported “${snapshot.title}” for pi: ${notes.join("; ")}.`,
        transient: true,
      });
    return { fileName: exportFileName(snapshot.title, kind), text };
  }

  /**
   * Import a parsed file as a new session, its tree and recorded calls included; an existing session is
   * never overwritten. What was kept without being understood, or not applied, is said in a notice.
   */
  async importSession(
    parsed: ParsedImport,
    fileName: string,
    {
      signal,
      onProgress,
      storer,
    }: {
      /** Aborted before the session is stored: nothing is, and the promise rejects. */
      signal?: AbortSignal;
      /** Entries stored, then recorded calls stored; `cancellable` while `signal` still stores nothing. */
      onProgress?: (what: "entries" | "calls", done: number, total: number, cancellable: boolean) => void;
      /** The worker that read the file: it stores the entries it holds, where sessions are in IndexedDB. */
      storer?: ImportStorer;
    } = {},
  ): Promise<ChatSession | undefined> {
    const [{ planImport, importCalls, importNotice }, { createSystemFact }] = await Promise.all([
      import("./import-session.ts"),
      import("../agent/new-session.ts"),
    ]);
    const plan = planImport(parsed, {
      hasModel: (ref) => this.catalog.find(ref) !== undefined,
      systemFact: () => createSystemFact(undefined, parsed.settings.tools),
    });
    // Sessions already called so: the new one stands beside them, and the notice says so.
    const namesakes = this.list.sessions.filter((meta) => meta.title === plan.init.title).length;
    const onEntries =
      onProgress && ((done: number, total: number) => onProgress("entries", done, total, true));
    // The worker's database is this page's only when sessions are in IndexedDB (not in memory).
    // The worker stores the recorded calls with the session, in its one transaction: Cancel covers them.
    let callsStored = false;
    const storedElsewhere =
      storer && this.#deps.store.kind === "indexeddb"
        ? async (meta: SessionMeta) => {
            const calls = parsed.calls.length;
            const stored = await storer.store(meta, plan.system, {
              ...(signal ? { signal } : {}),
              ...(onProgress
                ? {
                    // The entries are handed to storage first, then the calls.
                    onProgress: (done: number, total: number) => {
                      const entries = total - calls;
                      if (done <= entries) onProgress("entries", done, entries, true);
                      else onProgress("calls", done - entries, calls, true);
                    },
                  }
                : {}),
            });
            callsStored = true;
            return stored;
          }
        : undefined;
    const session = await this.newSession(
      { ...plan.init, importedFrom: { fileName, at: Date.now() } },
      {
        ...(signal ? { signal } : {}),
        ...(onEntries ? { onProgress: onEntries } : {}),
        ...(storedElsewhere ? { storedElsewhere } : {}),
      },
    );
    if (!session) return undefined;
    const notes = [...plan.notes];
    if (namesakes > 0)
      notes.unshift(
        `${namesakes === 1 ? "a session" : `${namesakes} sessions`} of that name ${namesakes === 1 ? "was" : "were"} already here and ${namesakes === 1 ? "is" : "are"} unchanged; this one is new, marked “imported”`,
      );
    if (parsed.calls.length > 0 && !callsStored) {
      try {
        const meta = await importCalls(
          this.#deps.store,
          session.id,
          parsed.calls,
          onProgress && ((done, total) => onProgress("calls", done, total, false)),
        );
        if (meta) {
          session.adoptMeta(meta);
          this.list.upsert(meta);
        }
      } catch (error) {
        notes.push(`its recorded model calls could not be stored (${(error as Error).message})`);
      }
    }
    if (notes.length > 0)
      this.notices.post({
        key: `import:${session.id}`,
        severity: "info",
        source: "import",
        text: importNotice(session.meta.title, notes),
        transient: true,
      });
    return session;
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
      if (!this.notices.find("switch"))
        this.notices.post({
          key: `fork-origin:${origin.sessionId}`,
          severity: "warning",
          source: "sessions",
          text: `The session this fork came from (${origin.title}) no longer exists.`,
        });
      return;
    }
    if (summary.trim()) await main.inject(createBranchSummary(summary.trim(), branch.id), "append");
  }

  /** Save the streaming reply before the page goes away. */
  onPageHide(): void {
    this.#current?.saveStreamingNow();
  }

  async #reportUnsaved(session: StoringSession, status: WriterStatus): Promise<void> {
    await this.health.reportUnsaved(session.id, session.meta.title, status, {
      exportSession: () => void this.#download(session.id),
      retry: () => void session.saveNow(),
    });
  }

  async #download(id: string): Promise<void> {
    const file = await this.exportSession(id, "jsonl");
    if (file) downloadText(file.fileName, file.text, "application/jsonl");
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
    this.notices.post({
      key: "switch",
      severity: "warning",
      source: "sessions",
      text: `“${current.meta.title}” has messages that are not stored yet. Export it, or free space and retry saving, before opening another session.`,
    });
    return false;
  }

  #switchTo(session: ChatSession, { discardPrevious = false } = {}): void {
    this.notices.dismiss("switch");
    this.notices.clearTransient();
    const previous = this.#current;
    this.#current = session;
    this.list.upsert(session.meta);
    if (previous && previous !== session) void previous.close({ discard: discardPrevious });
    writeCurrentId(session.id);
  }

  async #onSync(message: SyncMessage): Promise<void> {
    const current = this.#current;
    switch (message.type) {
      case "written":
        this.list.upsert(message.meta);
        if (current?.id === message.sessionId) await current.applyRemoteWrite(message.meta);
        return;
      case "meta":
        this.list.upsert(message.meta);
        if (current?.id === message.sessionId) current.adoptMeta(message.meta);
        return;
      case "running":
        if (current?.id === message.sessionId) current.setRunningElsewhere(message.running);
        return;
      case "sessions":
        await this.list.refresh();
        return;
    }
  }
}

/** The messages on the path to the leaf of a stored session (what an export or a copy holds). */
function pathMessages(records: readonly EntryRecord[], leafId: string | null): readonly AgentMessage[] {
  return projectSession(pathTo(relinkOrphans(records.map((record) => record.entry)), leafId)).facts;
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
