import type { SessionEntry } from "../messages/entries.ts";
import type { NewCall } from "../storage/records.ts";
import type { ReadProgress } from "./import-file.ts";
import type { ParsedImport } from "./parsed-import.ts";

/**
 * Messages between the page and the import worker. The worker reads, parses and checks a file; what it
 * found comes back in slices (entries, then calls), each small enough that the page takes it in without
 * a long task, and then the rest of the parsed file.
 */
export interface ImportRequest {
  file: File;
}

export type ImportReply =
  | ({ type: "progress" } & ReadProgress)
  | { type: "entries"; entries: SessionEntry[] }
  | { type: "calls"; calls: NewCall[] }
  /** The parsed file without its entries and calls (sent before). */
  | { type: "done"; parsed: ParsedImport }
  /** `expected`: an ImportError, whose message is meant for the person as it is. */
  | { type: "error"; message: string; expected: boolean };

/** About this many bytes of the file's text per slice sent to the page. */
export const SLICE_BYTES = 512 * 1024;

/** How many of `count` items go in one slice, from the file's size: at least one. */
export function sliceLength(count: number, fileBytes: number): number {
  if (count === 0) return 1;
  return Math.max(1, Math.floor((count * SLICE_BYTES) / Math.max(fileBytes, 1)));
}
