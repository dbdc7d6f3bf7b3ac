import { createContext } from "svelte";

export type Severity = "info" | "warning" | "error";

/** Where a notice comes from, so one part of the app can clear its own without touching others'. */
export type NoticeSource =
  "storage" | "session" | "sessions" | "models" | "tabs" | "proxy" | "import" | "live";

export interface NoticeAction {
  label: string;
  run: () => void;
}

export interface Notice {
  /** Identifies what the notice is about: posting the same key again replaces it instead of adding one. */
  key: string;
  severity: Severity;
  source: NoticeSource;
  text: string;
  /** Buttons the notice offers (Retry, Export, Reload). */
  actions?: readonly NoticeAction[];
  /** A notice that cannot be dismissed while its cause lasts (unsaved messages, say). */
  persistent?: boolean;
  /**
   * A report on something the person just did (an export, an import): it goes away with their next action
   * (see `clearTransient`), rather than outliving it.
   */
  transient?: boolean;
}

/**
 * Every message the playground has for the person — errors, warnings, what could not be done and why —
 * in one list, shown in one place. Each part of the app posts and clears its own by key; the same problem
 * reported twice is one notice, and dismissing is the same everywhere.
 */
export class Notices {
  #items = $state.raw<Notice[]>([]);

  get items(): readonly Notice[] {
    return this.#items;
  }

  /** Show a notice, replacing any with the same key (in place, so the list does not jump). */
  post(notice: Notice): void {
    const index = this.#items.findIndex((item) => item.key === notice.key);
    if (index === -1) {
      this.#items = [...this.#items, notice];
      return;
    }
    const current = this.#items[index];
    if (current && sameNotice(current, notice)) return;
    const items = this.#items.slice();
    items[index] = notice;
    this.#items = items;
  }

  /** Remove the notice with this key, if shown. */
  dismiss(key: string): void {
    if (this.#items.some((item) => item.key === key))
      this.#items = this.#items.filter((item) => item.key !== key);
  }

  /** Remove every notice from one source (or with a key prefix), e.g. when a session is left. */
  clear(match: { source?: NoticeSource; keyPrefix?: string }): void {
    const keep = this.#items.filter(
      (item) =>
        !(
          (match.source === undefined || item.source === match.source) &&
          (match.keyPrefix === undefined || item.key.startsWith(match.keyPrefix))
        ),
    );
    if (keep.length !== this.#items.length) this.#items = keep;
  }

  /** The person did something else: the reports on what they did before have served. */
  clearTransient(): void {
    if (this.#items.some((item) => item.transient))
      this.#items = this.#items.filter((item) => !item.transient);
  }

  find(key: string): Notice | undefined {
    return this.#items.find((item) => item.key === key);
  }
}

function sameNotice(a: Notice, b: Notice): boolean {
  return (
    a.severity === b.severity &&
    a.text === b.text &&
    a.source === b.source &&
    a.persistent === b.persistent &&
    a.transient === b.transient &&
    (a.actions ?? []).map((action) => action.label).join() ===
      (b.actions ?? []).map((action) => action.label).join()
  );
}

export const [getNotices, setNotices] = createContext<Notices>();
