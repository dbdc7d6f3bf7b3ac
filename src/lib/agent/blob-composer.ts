// A new Blob costs the page's thread more than its bytes: Chromium registers it with the browser's process by
// a synchronous call (BlobRegistry.Register, a "Receive mojo reply" inside the constructor in a trace) and
// hands over a copy of each Blob part's handle. A request body of a few dozen parts (request-body.ts) took
// 3–6 ms of the thread's CPU and, with the wait for the browser's answer, 18–30 ms of its time on a loaded
// machine: the longest task of a send at 10,000 facts. A worker composes it instead; the page only posts the
// parts (structured clone of a Blob is a handle, not its bytes).

/** What the page asks the worker for: a Blob of `parts`, answered under `id`. */
export interface ComposeRequest {
  id: number;
  parts: BlobPart[];
}

export interface ComposeReply {
  id: number;
  blob: Blob;
}

/** The part of a Worker the composer uses. */
export interface ComposerWorker {
  postMessage(message: ComposeRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<ComposeReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

function startWorker(): ComposerWorker | undefined {
  if (typeof Worker === "undefined") return undefined;
  return new Worker(new URL("./blob-worker.ts", import.meta.url), {
    type: "module",
    name: "blob",
  }) as unknown as ComposerWorker;
}

/** Composes Blobs in a worker when one can be started, else on the page. */
export class BlobComposer {
  /** undefined: not started yet; null: none can be (or it failed), so Blobs are composed on the page. */
  #worker: ComposerWorker | null | undefined;
  readonly #waiting = new Map<number, { parts: BlobPart[]; resolve: (blob: Blob) => void }>();
  #nextId = 0;
  readonly #start: () => ComposerWorker | undefined;

  constructor(start: () => ComposerWorker | undefined = startWorker) {
    this.#start = start;
  }

  /** Start the worker now (before the first Blob is asked for), if it is not running. */
  warm(): void {
    if (this.#worker !== undefined) return;
    let started: ComposerWorker | undefined;
    try {
      started = this.#start();
    } catch {
      // A page whose policy forbids workers (the HTML export's) composes its Blobs itself.
      started = undefined;
    }
    this.#worker = started ?? null;
    if (!started) return;
    started.onmessage = ({ data }) => {
      const waiting = this.#waiting.get(data.id);
      this.#waiting.delete(data.id);
      waiting?.resolve(data.blob);
    };
    // A worker that could not load (or failed) is not asked again: what it was asked for is composed here.
    started.onerror = (event) => {
      // Said here instead of as the page's uncaught error: the page goes on without the worker.
      event.preventDefault();
      this.#fallBack();
    };
  }

  /** A Blob of `parts`, as `new Blob(parts)` makes it. */
  compose(parts: BlobPart[]): Promise<Blob> {
    this.warm();
    const worker = this.#worker;
    if (!worker) return Promise.resolve(new Blob(parts));
    return new Promise((resolve) => {
      const id = this.#nextId++;
      this.#waiting.set(id, { parts, resolve });
      try {
        worker.postMessage({ id, parts });
      } catch {
        this.#waiting.delete(id);
        resolve(new Blob(parts));
      }
    });
  }

  #fallBack(): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const { parts, resolve } of this.#waiting.values()) resolve(new Blob(parts));
    this.#waiting.clear();
  }
}

/** The page's composer of request bodies. */
export const blobComposer = new BlobComposer();

/** Start the page's composer while the page is idle, so that the first request does not wait for it. */
export function warmBlobComposerWhenIdle(): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => blobComposer.warm());
}
