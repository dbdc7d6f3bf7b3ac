import type { Notices } from "../notices/notices.svelte.ts";
import type { WriterStatus } from "../storage/session-writer.ts";
import type { StorageInfo, StorageKind, UnsavedActions } from "./storage-info.ts";

/**
 * How the browser's storage is doing: which store the playground uses, how full it is, whether the
 * browser promised to keep it, whether another version of the playground took the database over, and
 * what a session could not store. Everything it has to say goes to the notices.
 */
export class StorageHealth {
  readonly #notices: Notices;
  #kind = $state<StorageKind>("indexeddb");
  #info = $state.raw<StorageInfo | undefined>(undefined);
  #replaced = $state(false);
  #persistenceRefused = $state(false);
  /** The sessions whose latest report says changes could not be written; replaced on each change. */
  #failing = $state.raw<ReadonlySet<string>>(new Set());
  /** The latest report per session: a report that waited for the storage estimate must not overtake it. */
  readonly #reports = new Map<string, number>();

  constructor(notices: Notices) {
    this.#notices = notices;
  }

  /** Which store the playground ended up with. */
  get kind(): StorageKind {
    return this.#kind;
  }

  opened(kind: StorageKind): void {
    this.#kind = kind;
  }

  get info(): StorageInfo | undefined {
    return this.#info;
  }

  /** The browser answered no when last asked to keep this site's data. */
  get persistenceRefused(): boolean {
    return this.#persistenceRefused;
  }

  /**
   * How many sessions have changes they could not write. With the getters above, what storageWarning()
   * (storage-warning.ts, loaded with the panes that show it) reads to decide whether to warn.
   */
  get failingSessions(): number {
    return this.#failing.size;
  }

  /** A newer version of the playground upgraded the database in another tab: this page must reload. */
  get replaced(): boolean {
    return this.#replaced;
  }

  async refreshInfo(): Promise<void> {
    const storage = globalThis.navigator?.storage;
    if (!storage) return;
    try {
      const [estimate, persisted] = await Promise.all([
        storage.estimate(),
        storage.persisted?.() ?? Promise.resolve(false),
      ]);
      this.#info = { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
    } catch {
      this.#info = undefined;
    }
  }

  /** Ask the browser not to evict this site's data under storage pressure; returns whether it agreed. */
  async requestPersistence(): Promise<boolean> {
    const granted = (await globalThis.navigator?.storage?.persist?.()) ?? false;
    this.#persistenceRefused = !granted;
    await this.refreshInfo();
    return granted;
  }

  /** Storage could not be opened: the playground runs in memory, and says so until the page closes. */
  fellBackToMemory(reason: string): void {
    this.#notices.post({
      key: "storage:memory",
      severity: "warning",
      source: "storage",
      persistent: true,
      text: `Sessions are kept in memory only and will be lost on reload: ${reason}`,
    });
  }

  /**
   * Another tab is upgrading the database: this one closed its connection so the upgrade can proceed. The
   * notices of rare events load with the first of them.
   */
  versionChanged(reload: () => void): void {
    this.#replaced = true;
    void import("./storage-notices.ts").then(({ versionNotice }) =>
      this.#notices.post(versionNotice(reload)),
    );
  }

  /** Our upgrade waits for a tab running an older version to let go of the database. */
  upgradeBlocked(): void {
    void import("./storage-notices.ts").then(({ blockedNotice }) => this.#notices.post(blockedNotice()));
  }

  /** What a session could not store, and what to do about it; cleared once everything is stored. */
  async reportUnsaved(
    sessionId: string,
    title: string,
    status: WriterStatus,
    actions: UnsavedActions,
  ): Promise<void> {
    const key = `storage:unsaved:${sessionId}`;
    const report = (this.#reports.get(sessionId) ?? 0) + 1;
    this.#reports.set(sessionId, report);
    const error = status.error;
    if (!error || status.unsaved === 0) {
      this.#notices.dismiss(key);
      this.#setFailing(sessionId, false);
      return;
    }
    this.#setFailing(sessionId, true);
    if (error.kind === "quota") await this.refreshInfo();
    if (this.#reports.get(sessionId) !== report) return;
    // The words are loaded with the first problem: most pages never have one.
    const { unsavedNotice } = await import("./storage-notices.ts");
    if (this.#reports.get(sessionId) !== report) return;
    this.#notices.post(unsavedNotice(key, title, status, error, this.#info, actions));
  }

  #setFailing(sessionId: string, failing: boolean): void {
    if (this.#failing.has(sessionId) === failing) return;
    const next = new Set(this.#failing);
    if (failing) next.add(sessionId);
    else next.delete(sessionId);
    this.#failing = next;
  }
}
