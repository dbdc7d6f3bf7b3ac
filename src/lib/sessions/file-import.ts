import type { SessionEntry } from "../messages/entries.ts";
import type { NewCall } from "../storage/records.ts";
import type { ImportReply, ImportRequest } from "./import-protocol.ts";
import { ImportError, type ParsedImport } from "./parsed-import.ts";

/**
 * Importing a chosen file without freezing the page: the file is read, parsed and checked in a worker
 * (import-worker.ts), which hands what it found back in slices; the page then stores it in slices too
 * (the store's `createSession`). Each step says how far it has come, and the whole import can be
 * cancelled until its session is stored, leaving nothing behind.
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

/**
 * Read a chosen file in a worker. Rejects with an ImportError for a file that cannot be imported (its
 * message is for the person), with ImportCancelled when `signal` aborts. Where workers are not
 * available, the file is read on the page.
 */
export async function readFileInWorker(
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
): Promise<ParsedImport> {
  if (signal?.aborted) throw new ImportCancelled();
  const worker = createWorker();
  if (!worker) {
    const { readSessionFile } = await import("./import-file.ts");
    const parsed = await readSessionFile(file, onProgress);
    if (signal?.aborted) throw new ImportCancelled();
    return parsed;
  }
  return new Promise<ParsedImport>((resolve, reject) => {
    const entries: SessionEntry[] = [];
    const calls: NewCall[] = [];
    const finish = (settle: () => void) => {
      worker.terminate();
      signal?.removeEventListener("abort", cancel);
      settle();
    };
    const cancel = () => finish(() => reject(new ImportCancelled()));
    signal?.addEventListener("abort", cancel, { once: true });
    worker.onmessage = ({ data }) => {
      if (data.type === "progress") onProgress?.({ phase: data.phase, done: data.done, total: data.total });
      // One slice at a time: each message is a task of its own, so none takes long.
      else if (data.type === "entries") for (const entry of data.entries) entries.push(entry);
      else if (data.type === "calls") for (const call of data.calls) calls.push(call);
      else if (data.type === "done") finish(() => resolve({ ...data.parsed, entries, calls }));
      else finish(() => reject(data.expected ? new ImportError(data.message) : new Error(data.message)));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish(() => reject(new Error(event.message || "the import worker stopped")));
    };
    worker.postMessage({ file });
  });
}
