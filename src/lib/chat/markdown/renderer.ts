import type { MarkdownLimits } from "./limits.ts";
import type { RenderRequest, RenderResponse } from "./protocol.ts";

/** Why a source is shown as plain text rather than formatted. */
export type PlainReason = "too-large" | "too-slow" | "failed";

export type MarkdownOutcome =
  | { kind: "html"; /** Sanitized HTML, one per top-level block. */ blocks: readonly string[] }
  | { kind: "plain"; reason: PlainReason };

/** What the page needs of a Worker; tests pass a fake. */
export interface WorkerLike {
  postMessage(message: RenderRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<RenderResponse>) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface RendererOptions {
  /** Markdown to block HTML on the main thread, without highlighting: used for short sources only. */
  renderBlocks: (source: string) => string[];
  /**
   * The blocks of a source that is plain prose, found without parsing it, already safe (they skip the
   * sanitizer); undefined for any other source. Tried up to `syncMaxChars`: a longer plain source, rendered
   * at once, made the jump to a fact at 100,000 facts slower (72 and 84 ms with a limit of 20,000
   * characters, 50 ms with this one, in `npm run bench -- --sessions-only` runs), so it goes to the worker.
   */
  renderPlain?: (source: string) => string[] | undefined;
  /** Whether a source holds code that the worker would highlight. */
  hasFencedCode: (source: string) => boolean;
  sanitize: (html: string) => string;
  /** Starts a Markdown worker; undefined where workers are unavailable. */
  createWorker: (() => WorkerLike) | undefined;
  limits: MarkdownLimits;
}

/** Something that shows Markdown: a reply's text block. Requests are tracked per requester. */
export type Requester = object;

export type Deliver = (outcome: MarkdownOutcome, source: string) => void;

interface Job {
  id: number;
  requester: Requester;
  source: string;
  deliver: Deliver;
  timer: ReturnType<typeof setTimeout>;
  startedAt: number;
  cancelled: boolean;
}

const MAX_OVERRUNS_KEPT = 20;

/** Renders that took longer than this are followed by as long a pause: the worker works at most half the time. */
const PAUSE_AFTER_MS = 50;

/**
 * Decides where and whether Markdown is rendered, so that the main thread's cost stays bounded whatever
 * a reply holds:
 * - sources up to `syncMaxChars` are rendered at once on the main thread (their worst case is a few ms),
 *   plain prose without the parser and the sanitizer (`renderPlain`);
 * - longer ones go to one worker, one request at a time, the newest source per requester replacing any
 *   it had waiting (a streamed reply asks for every frame; only its latest text matters);
 * - a request the worker has not answered within `timeBudgetMs` of starting to parse ends the worker, and
 *   that source and any continuation of it (the same reply, streamed further or shown again) are shown as
 *   plain text; the worker's start and its loading of highlighting are not counted (`loadBudgetMs` bounds them);
 * - sources over `maxChars` are plain text without trying;
 * - after a slow render the worker rests as long as it worked, so that a long stream re-rendered again and
 *   again cannot keep a core busy and slow the page's own thread on a small machine.
 * Sanitizing happens here, on the main thread, block by block with a cache: while a reply streams only
 * its last block is new.
 */
export class MarkdownRenderer {
  readonly #options: RendererOptions;
  readonly #outcomes = new BoundedCache<MarkdownOutcome>(2_000_000, (source) => source.length);
  readonly #sanitized = new BoundedCache<string>(4_000_000, (html) => html.length);
  readonly #waiting = new Map<Requester, { source: string; deliver: Deliver }>();
  /** Sources that overran the time budget, newest last: their continuations are not tried again. */
  readonly #overruns: string[] = [];
  #worker: WorkerLike | undefined;
  #job: Job | undefined;
  #nextId = 1;
  #restingUntil = 0;
  #waking = false;

  constructor(options: RendererOptions) {
    this.#options = options;
  }

  /**
   * What can be shown for `source` right away: a remembered result, plain text for what is over the
   * limits, or a main-thread render of a short source. `final` is false when the worker should still be
   * asked (for highlighting); undefined when only the worker can render it.
   */
  now(source: string): { outcome: MarkdownOutcome; final: boolean } | undefined {
    const { limits } = this.#options;
    // Before the cache: looking a source up hashes it whole, and a long reply streaming is looked up at
    // every frame (a megabyte spent most of its main-thread time there).
    if (source.length > limits.maxChars) return { outcome: plain("too-large"), final: true };
    const known = this.#outcomes.get(source);
    if (known) return { outcome: known, final: true };
    if (this.#overruns.some((overrun) => source.startsWith(overrun)))
      return { outcome: plain("too-slow"), final: true };
    if (source.length > limits.syncMaxChars) return undefined;
    const plainBlocks = this.#options.renderPlain?.(source);
    if (plainBlocks) {
      const outcome: MarkdownOutcome = { kind: "html", blocks: plainBlocks };
      this.#outcomes.set(source, outcome);
      return { outcome, final: true };
    }
    let blocks: string[];
    try {
      blocks = this.#options.renderBlocks(source);
    } catch {
      // A short source the parser chokes on (deep nesting overflows its stack): let the worker try.
      return this.#options.createWorker ? undefined : { outcome: plain("failed"), final: true };
    }
    const outcome = this.#html(blocks);
    const final = !this.#options.createWorker || !this.#options.hasFencedCode(source);
    if (final) this.#outcomes.set(source, outcome);
    return { outcome, final };
  }

  /** Render `source` in the worker and deliver the outcome, unless a newer request of `requester` replaces it. */
  request(requester: Requester, source: string, deliver: Deliver): void {
    if (this.#job?.requester === requester && this.#job.source === source && !this.#job.cancelled) return;
    if (!this.#options.createWorker) {
      this.#waiting.delete(requester);
      deliver(plain("failed"), source);
      return;
    }
    // Re-inserted at the end: requesters take turns, and a busy stream cannot starve the others.
    this.#waiting.delete(requester);
    this.#waiting.set(requester, { source, deliver });
    this.#next();
  }

  /** Forget what `requester` asked for: it no longer shows anything. */
  cancel(requester: Requester): void {
    this.#waiting.delete(requester);
    if (this.#job?.requester === requester) this.#job.cancelled = true;
  }

  #next(): void {
    const rest = this.#restingUntil - performance.now();
    if (rest > 0) {
      if (!this.#waking) {
        this.#waking = true;
        setTimeout(() => {
          this.#waking = false;
          this.#next();
        }, rest);
      }
      return;
    }
    while (!this.#job) {
      const first = this.#waiting.entries().next();
      if (first.done) return;
      const [requester, { source, deliver }] = first.value;
      this.#waiting.delete(requester);
      const known = this.#outcomes.get(source);
      if (known) {
        deliver(known, source);
        continue;
      }
      const worker = this.#startedWorker();
      if (!worker) {
        deliver(plain("failed"), source);
        continue;
      }
      const id = this.#nextId++;
      // Until the worker says it is parsing, it is starting or loading: that has its own, longer limit.
      const timer = setTimeout(() => this.#notReady(id), this.#options.limits.loadBudgetMs);
      this.#job = { id, requester, source, deliver, timer, startedAt: performance.now(), cancelled: false };
      worker.postMessage({ id, source });
    }
  }

  #startedWorker(): WorkerLike | undefined {
    if (this.#worker) return this.#worker;
    try {
      const worker = this.#options.createWorker?.();
      if (!worker) return undefined;
      worker.onmessage = (event) => this.#answered(event.data);
      worker.onerror = () => this.#failed(worker);
      this.#worker = worker;
      return worker;
    } catch {
      return undefined;
    }
  }

  #answered(response: RenderResponse): void {
    const job = this.#job;
    if (!job || response.id !== job.id) return;
    if ("parsing" in response) {
      clearTimeout(job.timer);
      job.timer = setTimeout(() => this.#overran(job.id), this.#options.limits.timeBudgetMs);
      job.startedAt = performance.now();
      return;
    }
    this.#finish(job, "error" in response ? plain("failed") : this.#html(response.blocks));
  }

  /** The worker spent its budget on one source: end it (the only way to stop a parse) and show plain text. */
  #overran(id: number): void {
    const job = this.#job;
    if (!job || job.id !== id) return;
    this.#stopWorker();
    // A longer text that starts the same way (the same reply, streamed further) would only take longer.
    this.#overruns.push(job.source);
    if (this.#overruns.length > MAX_OVERRUNS_KEPT) this.#overruns.shift();
    this.#finish(job, plain("too-slow"));
  }

  /** The worker never got ready to parse: end it and show plain text, without holding this source against it. */
  #notReady(id: number): void {
    const job = this.#job;
    if (!job || job.id !== id) return;
    this.#stopWorker();
    this.#finish(job, plain("failed"));
  }

  #failed(worker: WorkerLike): void {
    if (this.#worker !== worker) return;
    this.#stopWorker();
    if (this.#job) this.#finish(this.#job, plain("failed"));
  }

  #finish(job: Job, outcome: MarkdownOutcome): void {
    clearTimeout(job.timer);
    this.#job = undefined;
    const took = performance.now() - job.startedAt;
    if (took > PAUSE_AFTER_MS) this.#restingUntil = performance.now() + took;
    this.#outcomes.set(job.source, outcome);
    if (!job.cancelled) job.deliver(outcome, job.source);
    this.#next();
  }

  #stopWorker(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
  }

  #html(blocks: readonly string[]): MarkdownOutcome {
    return {
      kind: "html",
      blocks: blocks.map((block) => {
        const known = this.#sanitized.get(block);
        if (known !== undefined) return known;
        const clean = this.#options.sanitize(block);
        this.#sanitized.set(block, clean);
        return clean;
      }),
    };
  }
}

function plain(reason: PlainReason): MarkdownOutcome {
  return { kind: "plain", reason };
}

/** A map that forgets its least recently used entries past a total size, keys included. */
class BoundedCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #maxSize: number;
  readonly #sizeOf: (key: string) => number;
  #size = 0;

  constructor(maxSize: number, sizeOf: (key: string) => number) {
    this.#maxSize = maxSize;
    this.#sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#entries.has(key)) this.#entries.delete(key);
    else this.#size += this.#sizeOf(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#size <= this.#maxSize) break;
      this.#entries.delete(oldest);
      this.#size -= this.#sizeOf(oldest);
    }
  }
}
