import { createStore, del, get, set, type UseStore } from "idb-keyval";

/**
 * Small values that are not sessions — the notes the `save_note` tool keeps, drafts of what a person is
 * typing — in idb-keyval's store, a database of its own beside the sessions. Reads are asynchronous, so
 * nothing needed for the first paint lives here. Without IndexedDB the values live in memory.
 */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export const KV_DATABASE = "pi-playground-kv";

class IdbKeyValueStore implements KeyValueStore {
  readonly #store: UseStore;
  constructor(store: UseStore) {
    this.#store = store;
  }
  get(key: string): Promise<unknown> {
    return get<unknown>(key, this.#store);
  }
  set(key: string, value: unknown): Promise<void> {
    return set(key, value, this.#store);
  }
  delete(key: string): Promise<void> {
    return del(key, this.#store);
  }
}

export class MemoryKeyValueStore implements KeyValueStore {
  readonly #values = new Map<string, unknown>();
  async get(key: string): Promise<unknown> {
    return structuredClone(this.#values.get(key));
  }
  async set(key: string, value: unknown): Promise<void> {
    this.#values.set(key, structuredClone(value));
  }
  async delete(key: string): Promise<void> {
    this.#values.delete(key);
  }
}

let shared: KeyValueStore | undefined;

/** The page's key-value store (opened on first use). */
export function keyValueStore(): KeyValueStore {
  if (!shared) {
    try {
      shared = globalThis.indexedDB
        ? new IdbKeyValueStore(createStore(KV_DATABASE, "values"))
        : new MemoryKeyValueStore();
    } catch {
      shared = new MemoryKeyValueStore();
    }
  }
  return shared;
}

/** IndexedDB is unusable in this page (it failed or never answered): keep small values in memory too. */
export function useMemoryKeyValueStore(): void {
  shared = new MemoryKeyValueStore();
}
