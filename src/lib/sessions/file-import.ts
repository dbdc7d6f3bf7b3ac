import type { SessionEntry } from "../messages/entries.ts";
import type { NewCall, SessionMeta } from "../storage/records.ts";
import type { ImportReply, ImportRequest, TextsApart } from "./import-protocol.ts";
import { putLongTexts } from "./long-texts.ts";
import { ImportError, type ParsedImport } from "./parsed-import.ts";

/**
 * Importing a chosen file without freezing the page: the file is read, parsed and checked in a worker
 * (import-worker.ts), which hands what it found back in slices; the same worker then stores it, so that
 * copying the entries into IndexedDB is not the page's work either. Each step says how far it has come,
 * and the whole import can be cancelled until its session is stored, leaving nothing behind.
 */

export type ImportPhase = "reading" | "parsing" | "storing";

export interface ImportProgress {
  phase: ImportPhase;
  done: number;
  total: number;
}

export const CANCELLED_MESSAGE = "Import cancelled; nothing was stored.";

/** The person cancelled the import: nothing was stored. */
export class ImportCancelled extends Error {
  constructor() {
    super(CANCELLED_MESSAGE);
  }
}

/** The part of a Worker the import uses. */
export interface ImportWorker {
  postMessage(message: ImportRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<ImportReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

function startWorker(): ImportWorker | undefined {
  if (typeof Worker === "undefined") return undefined;
  return new Worker(new URL("./import-worker.ts", import.meta.url), {
    type: "module",
    name: "import",
  }) as unknown as ImportWorker;
}

/** The worker that read a file, holding its entries: it stores them as the new session when asked. */
export interface ImportStorer {
  /**
   * Store the entries and recorded calls read as the session `meta` describes (with `system` first:
   * withSystemEntry), in one transaction. Rejects with `signal`'s reason when it aborts before the session
   * is stored: nothing of it is.
   */
  store(
    meta: SessionMeta,
    system: SessionEntry | undefined,
    options?: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
  ): Promise<SessionMeta>;
  /** End the worker: its file is not needed any more. */
  close(): void;
}

/**
 * Read a chosen file in a worker. Rejects with an ImportError for a file that cannot be imported (its
 * message is for the person), with ImportCancelled when `signal` aborts. Where workers are not
 * available, the file is read on the page.
 */
export async function readFileInWorker(
  file: File,
  options: {
    onProgress?: (progress: ImportProgress) => void;
    signal?: AbortSignal;
    createWorker?: () => ImportWorker | undefined;
  } = {},
): Promise<ParsedImport> {
  const { parsed, storer } = await openFileInWorker(file, options);
  storer?.close();
  return parsed;
}

/**
 * Read a chosen file in a worker, as `readFileInWorker`, and keep the worker with what it read: its
 * `storer` stores the entries as the new session (none where the file was read on the page). Whoever
 * receives the storer closes it.
 */
export async function openFileInWorker(
  file: File,
  {
    onProgress,
    signal,
    createWorker = startWorker,
  }: {
    onProgress?: (progress: ImportProgress) => void;
    signal?: AbortSignal;
    createWorker?: () => ImportWorker | undefined;
  } = {},
): Promise<{ parsed: ParsedImport; storer?: ImportStorer }> {
  if (signal?.aborted) throw new ImportCancelled();
  const worker = createWorker();
  if (!worker) {
    const { readSessionFile } = await import("./import-file.ts");
    const parsed = await readSessionFile(file, onProgress);
    if (signal?.aborted) throw new ImportCancelled();
    return { parsed };
  }
  return new Promise((resolve, reject) => {
    const entries: SessionEntry[] = [];
    const calls: NewCall[] = [];
    /** Pieces of the long texts of the next slice, as they come. */
    let pieces: string[] = [];
    const finish = (settle: () => void) => {
      signal?.removeEventListener("abort", cancel);
      worker.onmessage = null;
      worker.onerror = null;
      settle();
    };
    const fail = (error: Error) =>
      finish(() => {
        worker.terminate();
        reject(error);
      });
    const cancel = () => fail(new ImportCancelled());
    /** The slice's long texts put back from the pieces that came before it: false (and failed) if they do not fit. */
    const withLongTexts = <Item>(items: Item[], { taken, pooled, pool }: TextsApart): boolean => {
      try {
        putLongTexts(items, taken ?? [], pieces, pooled, pool);
        pieces = [];
        return true;
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
        return false;
      }
    };
    signal?.addEventListener("abort", cancel, { once: true });
    worker.onmessage = ({ data }) => {
      if (data.type === "progress") onProgress?.({ phase: data.phase, done: data.done, total: data.total });
      // One slice at a time: each message is a task of its own, so none takes long.
      else if (data.type === "text") pieces.push(data.piece);
      else if (data.type === "entries") {
        if (withLongTexts(data.entries, data)) for (const entry of data.entries) entries.push(entry);
      } else if (data.type === "calls") {
        if (withLongTexts(data.calls, data)) for (const call of data.calls) calls.push(call);
      } else if (data.type === "done")
        finish(() => resolve({ parsed: { ...data.parsed, entries, calls }, storer: storerOf(worker) }));
      else if (data.type === "error")
        fail(data.expected ? new ImportError(data.message) : new Error(data.message));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || "the import worker stopped"));
    };
    worker.postMessage({ type: "read", file });
  });
}

function storerOf(worker: ImportWorker): ImportStorer {
  return {
    store: (meta, system, { signal, onProgress } = {}) =>
      new Promise<SessionMeta>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        // Asked to give up, the worker aborts the transaction and says so; should the session be stored
        // first, it is kept and shown, as it would be had Cancel come a moment later.
        const cancel = () => worker.postMessage({ type: "cancel" });
        const finish = (settle: () => void) => {
          signal?.removeEventListener("abort", cancel);
          worker.onmessage = null;
          worker.onerror = null;
          settle();
        };
        signal?.addEventListener("abort", cancel, { once: true });
        worker.onmessage = ({ data }) => {
          if (data.type === "storing") onProgress?.(data.done, data.total);
          else if (data.type === "stored") finish(() => resolve(data.meta));
          else if (data.type === "store-failed")
            finish(() => reject(data.cancelled && signal?.aborted ? signal.reason : new Error(data.message)));
        };
        worker.onerror = (event) => {
          event.preventDefault();
          finish(() => reject(new Error(event.message || "the import worker stopped")));
        };
        worker.postMessage({ type: "store", meta, ...(system ? { system } : {}) });
      }),
    close: () => worker.terminate(),
  };
}
