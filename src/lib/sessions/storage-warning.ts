import { formatBytes } from "../../shared/bytes.ts";
import type { StorageInfo, StorageKind } from "./storage-info.ts";

/**
 * When the sessions pane warns about storage. The pane stays quiet while storage is healthy (the whole
 * story is in the Storage panel); it warns, most serious first, when:
 * - the sessions live in memory only (IndexedDB could not be opened): everything ends with the tab;
 * - a session has changes it could not write: they are kept in this tab only until a retry succeeds;
 * - the site uses at least `NEARLY_FULL_SHARE` of its quota: the next writes may fail;
 * - the browser refused to keep the data persistently and it holds at least `SIGNIFICANT_USAGE_BYTES`:
 *   under storage pressure the browser may evict all of it. A refusal with little stored is not worth a
 *   permanent warning (most browsers refuse by default), and a page that never asked is not a refusal.
 */
export const NEARLY_FULL_SHARE = 0.8;
export const SIGNIFICANT_USAGE_BYTES = 50 * 1024 ** 2;

export type StorageWarningKind = "memory" | "unsaved" | "nearly-full" | "eviction-risk";

export interface StorageWarning {
  kind: StorageWarningKind;
  /** A few words for the sessions pane and the rail's marker. */
  text: string;
}

export interface StorageState {
  kind: StorageKind;
  info: StorageInfo | undefined;
  /** The browser answered no when asked to keep the data persistently. */
  persistenceRefused: boolean;
  /** How many sessions have changes they could not write. */
  failingSessions: number;
}

export function storageWarning(state: StorageState): StorageWarning | undefined {
  if (state.kind === "memory") return { kind: "memory", text: "In memory only: sessions end with this tab" };
  if (state.failingSessions > 0)
    return {
      kind: "unsaved",
      text:
        state.failingSessions === 1
          ? "A session has changes that could not be saved"
          : `${state.failingSessions} sessions have changes that could not be saved`,
    };
  const info = state.info;
  if (!info) return undefined;
  const share = usedShare(info);
  if (share !== undefined && share >= NEARLY_FULL_SHARE)
    return { kind: "nearly-full", text: `Storage ${Math.floor(share * 100)}% full` };
  if (!info.persisted && state.persistenceRefused && info.usage >= SIGNIFICANT_USAGE_BYTES)
    return {
      kind: "eviction-risk",
      text: `${formatBytes(info.usage)} stored that the browser may evict`,
    };
  return undefined;
}

/** The share of the quota in use, or undefined when the browser reports no quota. */
export function usedShare(info: StorageInfo): number | undefined {
  if (!(info.quota > 0)) return undefined;
  return Math.min(1, Math.max(0, info.usage / info.quota));
}
