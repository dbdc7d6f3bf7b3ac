import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sseFrame } from "../shared/proxy-events.ts";
import { SseWriter, type SseSink, type SseWriterOptions } from "./sse-writer.ts";

/** A socket stand-in: `full` makes every write report a full buffer until "drain" is emitted. */
class FakeSink extends EventEmitter implements SseSink {
  destroyed = false;
  writes: string[] = [];
  ended = false;
  full = false;
  writableLength = 0;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    if (this.full) this.writableLength += chunk.length;
    return !this.full;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit("close");
  }
  drain(): void {
    this.full = false;
    this.writableLength = 0;
    this.emit("drain");
  }
}

const frame = (text: string) => sseFrame({ type: "text_delta", contentIndex: 0, delta: text });
const tick = () => new Promise((resolve) => setImmediate(resolve));

function writer(sink: FakeSink, options: Partial<SseWriterOptions> = {}) {
  const drops: string[] = [];
  const instance = new SseWriter(sink, {
    readTimeoutMs: 1_000,
    maxUnsentBytes: 1024 * 1024,
    onDrop: (reason) => drops.push(reason),
    ...options,
  });
  return { writer: instance, drops };
}

afterEach(() => vi.useRealTimers());

describe("SseWriter", () => {
  it("coalesces a burst of frames into one write, in order", async () => {
    const sink = new FakeSink();
    const { writer: sse } = writer(sink);
    for (const text of ["a", "b", "c"]) void sse.write(frame(text));
    expect(sink.writes).toEqual([]);
    await tick();
    expect(sink.writes).toHaveLength(1);
    expect(sink.writes[0]?.match(/"delta":"(\w)"/g)).toEqual(['"delta":"a"', '"delta":"b"', '"delta":"c"']);
  });

  it("writes paced frames as they come", async () => {
    const sink = new FakeSink();
    const { writer: sse } = writer(sink);
    void sse.write(frame("a"));
    await tick();
    void sse.write(frame("b"));
    await tick();
    expect(sink.writes).toHaveLength(2);
  });

  it("writes nothing more to a full socket until it drains, then sends what queued meanwhile", async () => {
    const sink = new FakeSink();
    sink.full = true;
    const { writer: sse } = writer(sink);
    void sse.write(frame("first"));
    await tick();
    expect(sink.writes).toHaveLength(1);
    // The delayed flush honours the full buffer: later frames wait instead of being written.
    void sse.write(frame("second"));
    void sse.write(frame("third"));
    await tick();
    await tick();
    expect(sink.writes).toHaveLength(1);
    sink.drain();
    expect(sink.writes).toHaveLength(2);
    expect(sink.writes[1]).toContain('"second"');
    expect(sink.writes[1]).toContain('"third"');
  });

  it("lets go of a client that reads nothing for the read timeout", async () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    sink.full = true;
    const { writer: sse, drops } = writer(sink, { readTimeoutMs: 5_000 });
    void sse.write(frame("x"));
    await vi.advanceTimersToNextTimerAsync();
    expect(sink.writes).toHaveLength(1);
    vi.advanceTimersByTime(4_999);
    expect(drops).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(drops).toEqual(["it read nothing for 5 s"]);
    expect(sink.destroyed).toBe(true);
    expect(sse.dropped).toBe(true);
  });

  it("keeps a slow client that drains from time to time", async () => {
    vi.useFakeTimers();
    const sink = new FakeSink();
    sink.full = true;
    const { writer: sse, drops } = writer(sink, { readTimeoutMs: 5_000 });
    for (let round = 0; round < 5; round++) {
      void sse.write(frame(`part ${round}`));
      await vi.advanceTimersToNextTimerAsync();
      vi.advanceTimersByTime(4_000);
      sink.drain();
      sink.full = true;
    }
    expect(drops).toEqual([]);
    expect(sink.destroyed).toBe(false);
  });

  it("lets go of a client that falls more than the byte limit behind, and holds no more than that", () => {
    const sink = new FakeSink();
    sink.full = true;
    const { writer: sse, drops } = writer(sink, { maxUnsentBytes: 10_000, flushBytes: 1_000 });
    const big = frame("y".repeat(900));
    let frames = 0;
    while (!sse.dropped && frames < 1_000) {
      void sse.write(big);
      frames++;
      expect(sink.writableLength).toBeLessThanOrEqual(10_000 + big.length);
    }
    expect(drops).toEqual(["it fell more than 9.8 kB behind"]);
    expect(frames).toBeLessThan(15);
    expect(sink.destroyed).toBe(true);
  });

  it("counts what a client is behind frame by frame, never by measuring the whole queue again", () => {
    // Measuring the queue at every frame made a long reply to a client that stopped reading quadratic: the
    // proxy spent its time counting and took 30 s to notice a 4 MB lag. What is measured must grow with what
    // is written, not with its square.
    const sink = new FakeSink();
    sink.full = true;
    const limit = 4 * 1024 * 1024;
    const { writer: sse, drops } = writer(sink, { maxUnsentBytes: limit, flushBytes: 64 * 1024 });
    void sse.write(frame("start"));
    const piece = frame("f".repeat(1_000));
    const byteLength = Buffer.byteLength;
    let counted = 0;
    Buffer.byteLength = ((value: Parameters<typeof byteLength>[0], encoding?: BufferEncoding) => {
      if (typeof value === "string") counted += value.length;
      return byteLength(value, encoding);
    }) as typeof byteLength;
    let written = 0;
    try {
      // Stops early once the count runs away, so a regression fails quickly instead of running for minutes.
      while (!sse.dropped && written < 2 * limit && counted <= 4 * written + limit) {
        void sse.write(piece);
        written += piece.length;
      }
    } finally {
      Buffer.byteLength = byteLength;
    }
    expect(drops).toEqual(["it fell more than 4 MB behind"]);
    expect(counted).toBeLessThanOrEqual(2 * written);
  });

  it("gives the event loop a turn while the socket is full, once per flush size queued", () => {
    const sink = new FakeSink();
    sink.full = true;
    const { writer: sse } = writer(sink, { flushBytes: 1_000 });
    const piece = frame("z".repeat(400));
    expect(sse.write(piece)).toBeUndefined();
    void sse.write(piece);
    void sse.write(piece);
    // The first three filled the socket (one synchronous flush); the next ones queue, and every
    // thousand bytes of them the caller is asked to yield.
    const results = Array.from({ length: 6 }, () => sse.write(piece));
    expect(results.filter((result) => result instanceof Promise)).toHaveLength(2);
  });

  it("flushes what is left on end and stops writing to a destroyed socket", async () => {
    const sink = new FakeSink();
    const { writer: sse } = writer(sink);
    void sse.write(frame("last"));
    sse.end();
    expect(sink.writes).toHaveLength(1);
    expect(sink.ended).toBe(true);
    sink.destroyed = true;
    void sse.write(frame("after"));
    await tick();
    expect(sink.writes).toHaveLength(1);
  });
});
