import { formatBytes } from "../shared/bytes.ts";
import { formatDuration } from "./format-duration.ts";

/** The part of a Node response the writer needs, so tests can pass a fake. */
export interface SseSink {
  readonly destroyed: boolean;
  /** Bytes handed to `write` that the socket has not sent yet. */
  readonly writableLength: number;
  write(chunk: string): boolean;
  end(): void;
  destroy(): void;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}

export interface SseWriterOptions {
  /** A client that has taken nothing from a full socket for this long is let go. */
  readTimeoutMs: number;
  /** A client this many bytes behind (queued here and in the socket's buffer) is let go. */
  maxUnsentBytes: number;
  /** Called once when the client is let go, with the reason, after the socket was destroyed. */
  onDrop: (reason: string) => void;
  /** Past this many queued bytes, frames are written at once instead of at the end of the turn. */
  flushBytes?: number;
}

const DEFAULT_FLUSH_BYTES = 64 * 1024;

/**
 * Writes SSE frames to one client, coalescing the frames produced within one turn of the event loop into
 * one write: a fast upstream can emit thousands of events in a burst, and one socket write per event would
 * make the proxy, not the model, the bottleneck. Paced streams still go out at once: the flush runs right
 * after the turn that produced the event.
 *
 * Backpressure is honoured on every write: once the socket reports a full buffer, nothing more is written
 * until it drains, and frames queue here instead. The upstream is still read meanwhile (pi-ai buffers its
 * events without limit anyway, so pausing would only move the memory out of sight); what queues here is
 * counted instead. A client more than `maxUnsentBytes` behind, or that has drained nothing for
 * `readTimeoutMs`, is dropped, so each stream's memory is bounded whatever the client does.
 */
export class SseWriter {
  readonly #sink: SseSink;
  readonly #options: SseWriterOptions;
  readonly #flushBytes: number;
  #pending = "";
  /** UTF-8 bytes of `#pending`, counted frame by frame as it grows: never by measuring the whole again. */
  #pendingBytes = 0;
  #scheduled = false;
  #blocked = false;
  #queuedSinceYield = 0;
  #stallTimer: NodeJS.Timeout | undefined;
  #dropped = false;

  constructor(sink: SseSink, options: SseWriterOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#flushBytes = options.flushBytes ?? DEFAULT_FLUSH_BYTES;
    sink.once("close", () => this.#clearStallTimer());
  }

  /** The client was let go: it stopped reading or fell too far behind. */
  get dropped(): boolean {
    return this.#dropped;
  }

  /**
   * Queue one frame. Returns a promise only while the socket is full and another `flushBytes` have queued
   * since the last one: awaiting it gives the event loop a turn, so that "drain" can arrive before the
   * caller, which may hold a whole reply in memory already, pushes more.
   */
  write(frame: string): Promise<void> | undefined {
    if (this.#dropped || this.#sink.destroyed) return undefined;
    this.#pending += frame;
    this.#pendingBytes += Buffer.byteLength(frame);
    if (this.#blocked) {
      if (this.#tooFarBehind()) {
        this.#drop(`it fell more than ${formatBytes(this.#options.maxUnsentBytes)} behind`);
        return undefined;
      }
      this.#queuedSinceYield += frame.length;
      if (this.#queuedSinceYield < this.#flushBytes) return undefined;
      this.#queuedSinceYield = 0;
      return new Promise((resolve) => setImmediate(resolve));
    }
    if (this.#pending.length >= this.#flushBytes) this.#flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        if (!this.#blocked) this.#flush();
      });
    }
    return undefined;
  }

  /** Write what is queued and end the response. A client that then reads nothing is still let go in time. */
  end(): void {
    if (this.#dropped || this.#sink.destroyed) return;
    this.#blocked = false;
    this.#flush();
    this.#sink.end();
  }

  #flush(): void {
    if (this.#pending === "" || this.#sink.destroyed) return;
    const chunk = this.#pending;
    this.#pending = "";
    this.#pendingBytes = 0;
    if (this.#sink.write(chunk)) return;
    this.#blocked = true;
    this.#queuedSinceYield = 0;
    this.#armStallTimer();
    const drained = () => {
      this.#sink.off("drain", drained);
      this.#blocked = false;
      this.#clearStallTimer();
      this.#flush();
    };
    this.#sink.once("drain", drained);
  }

  #tooFarBehind(): boolean {
    // Measuring the whole queue at every frame would cost its size each time: quadratic in a long reply to
    // a client that stopped reading, enough to keep the proxy too busy to notice it had fallen behind.
    return this.#pendingBytes + this.#sink.writableLength > this.#options.maxUnsentBytes;
  }

  #armStallTimer(): void {
    if (this.#stallTimer) {
      this.#stallTimer.refresh();
      return;
    }
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      this.#drop(`it read nothing for ${formatDuration(this.#options.readTimeoutMs)}`);
    }, this.#options.readTimeoutMs);
  }

  #clearStallTimer(): void {
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }

  #drop(reason: string): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.#pending = "";
    this.#pendingBytes = 0;
    this.#clearStallTimer();
    this.#sink.destroy();
    this.#options.onDrop(reason);
  }
}
