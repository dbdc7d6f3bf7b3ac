/** What the browser says of its storage for this page. */
export interface StorageInfo {
  usage: number;
  quota: number;
  persisted: boolean;
}

export type StorageKind = "indexeddb" | "memory";

/** What the storage notice of a session offers besides its text. */
export interface UnsavedActions {
  exportSession: () => void;
  retry: () => void;
}
