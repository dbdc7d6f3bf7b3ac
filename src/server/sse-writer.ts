import type { ProxyAssistantMessageEvent } from "@earendil-works/pi-agent-core";
import { sseFrame } from "../shared/proxy-events.ts";

/** The part of a Node response the writer needs, so tests can pass a fake. */
export interface SseSink {
  readonly destroyed: boolean;
  write(chunk: string): boolean;
  end(): void;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}

/**
 * Writes SSE frames, coalescing the frames produced within one turn of the event loop into one write.
 * A fast upstream can emit thousands of events in a burst; one socket write per event would make the
 * proxy, not the model, the bottleneck. Paced streams still go out at once: the flush runs right after
 * the turn that produced the event. Backpressure is honoured: past `highWaterMark` buffered bytes the
 * writer waits for the socket to drain before it accepts more.
 */
export class SseWriter {
  readonly #sink: SseSink;
  readonly #highWaterMark: number;
  #pending = "";
  #scheduled = false;
  #waitingForDrain = false;

  constructor(sink: SseSink, highWaterMark = 64 * 1024) {
    this.#sink = sink;
    this.#highWaterMark = highWaterMark;
  }

  async send(event: ProxyAssistantMessageEvent): Promise<void> {
    await this.#push(sseFrame(event));
  }

  /** Waiting for a client that does not read: its socket buffer is full. */
  get blocked(): boolean {
    return this.#waitingForDrain;
  }

  /** A comment line: ignored by clients, keeps idle connections open. */
  comment(text: string): void {
    void this.#push(`: ${text}\n\n`);
  }

  /** Write what is buffered and end the response. */
  end(): void {
    this.#flush();
    if (!this.#sink.destroyed) this.#sink.end();
  }

  async #push(frame: string): Promise<void> {
    if (this.#sink.destroyed) return;
    this.#pending += frame;
    if (this.#pending.length >= this.#highWaterMark) {
      if (!this.#flush()) await this.#drained();
      return;
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#flush();
      });
    }
  }

  /** Returns false when the socket's buffer is full and the caller should wait for "drain". */
  #flush(): boolean {
    if (this.#pending === "" || this.#sink.destroyed) return true;
    const chunk = this.#pending;
    this.#pending = "";
    return this.#sink.write(chunk);
  }

  #drained(): Promise<void> {
    this.#waitingForDrain = true;
    return new Promise((resolve) => {
      const done = () => {
        this.#waitingForDrain = false;
        this.#sink.off("drain", done);
        this.#sink.off("close", done);
        resolve();
      };
      this.#sink.once("drain", done);
      this.#sink.once("close", done);
    });
  }
}
