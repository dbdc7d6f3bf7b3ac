import type { SessionEntry } from "../messages/entries.ts";
import { factOf } from "../model-view/session-projection.ts";
import type { MessageSource } from "./composition.ts";

/**
 * The session's entries by id, with the role of the fact each stands for. Follows a live list: when
 * the list is replaced (entries added or replaced), the index is built again on its next use.
 */
export class EntryIndex {
  readonly #entries: () => readonly SessionEntry[];
  #indexed: readonly SessionEntry[] | undefined;
  readonly #byId = new Map<string, SessionEntry>();
  readonly #roles = new Map<string, string | undefined>();

  constructor(entries: readonly SessionEntry[] | (() => readonly SessionEntry[])) {
    this.#entries = typeof entries === "function" ? entries : () => entries;
  }

  /** The entries, indexed again if the list changed since. */
  get entries(): readonly SessionEntry[] {
    const entries = this.#entries();
    if (entries !== this.#indexed) {
      this.#indexed = entries;
      this.#byId.clear();
      this.#roles.clear();
      for (const entry of entries) this.#byId.set(entry.id, entry);
    }
    return entries;
  }

  entry(id: string | null | undefined): SessionEntry | undefined {
    void this.entries;
    return id ? this.#byId.get(id) : undefined;
  }

  roleOf(id: string | null | undefined): string | undefined {
    if (!id) return undefined;
    void this.entries;
    if (this.#roles.has(id)) return this.#roles.get(id);
    const entry = this.#byId.get(id);
    const role = entry ? factOf(entry)?.role : undefined;
    this.#roles.set(id, role);
    return role;
  }

  /** Whether `ancestor` is `id` or lies on the path from the root to it. */
  isOnPathTo(ancestor: string, id: string | null): boolean {
    void this.entries;
    const seen = new Set<string>();
    for (let current = id; current !== null && !seen.has(current);) {
      if (current === ancestor) return true;
      seen.add(current);
      current = this.#byId.get(current)?.parentId ?? null;
    }
    return false;
  }

  sources(ids: readonly (string | null)[]): MessageSource[] {
    return ids.map((entryId) => ({ entryId: entryId ?? null, role: this.roleOf(entryId) }));
  }
}
