import type { SessionEntry } from "../messages/entries.ts";
import type { NewCall, SessionMeta } from "../storage/records.ts";
import type { ReadProgress } from "./import-file.ts";
import type { PooledText, TakenText } from "./long-texts.ts";
import type { ParsedImport } from "./parsed-import.ts";

/**
 * Messages between the page and the import worker. The worker reads, parses and checks a file; what it
 * found comes back in slices (entries, then calls), each small enough that the page takes it in without
 * a long task, and then the rest of the parsed file. The worker keeps the entries it read: asked to, it
 * stores them itself as the new session, so that the page never copies them into IndexedDB (a copy of a
 * 30 MB entry takes the page's thread for over a second), and it can be told to give that up.
 */
export type ImportRequest =
  | { type: "read"; file: File }
  /**
   * Store the entries and recorded calls read as the session `meta` describes, in one transaction; with
   * `system`, that entry first (withSystemEntry).
   */
  | { type: "store"; meta: SessionMeta; system?: SessionEntry }
  /** Give up storing: the session's transaction is aborted, so nothing of it is stored. */
  | { type: "cancel" };

export type ImportReply =
  | ({ type: "progress" } & ReadProgress)
  /** A piece of a long text taken out of the next slice of entries or calls (long-texts.ts). */
  | { type: "text"; piece: string }
  /**
   * `taken`: where the long texts whose pieces came just before belong; `pooled`: where the texts held in
   * `pool` belong (long-texts.ts).
   */
  | ({ type: "entries"; entries: SessionEntry[] } & TextsApart)
  | ({ type: "calls"; calls: NewCall[] } & TextsApart)
  /** The parsed file without its entries and calls (sent before). */
  | { type: "done"; parsed: ParsedImport }
  /** `expected`: an ImportError, whose message is meant for the person as it is. */
  | { type: "error"; message: string; expected: boolean }
  /** Entries and calls handed to storage so far, of all. */
  | { type: "storing"; done: number; total: number }
  /** The session is stored: its metadata as stored. */
  | { type: "stored"; meta: SessionMeta }
  /** Nothing was stored: `cancelled` when it was given up. */
  | { type: "store-failed"; message: string; cancelled: boolean };

/** The texts sent apart from a slice's items. */
export interface TextsApart {
  taken?: TakenText[];
  pooled?: PooledText[];
  pool?: string;
}

/** About this many bytes of the file's text per slice sent to the page. */
export const SLICE_BYTES = 512 * 1024;

/** How many of `count` items go in one slice, from the file's size: at least one. */
export function sliceLength(count: number, fileBytes: number): number {
  if (count === 0) return 1;
  return Math.max(1, Math.floor((count * SLICE_BYTES) / Math.max(fileBytes, 1)));
}
