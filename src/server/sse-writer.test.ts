import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { SseWriter, type SseSink } from "./sse-writer.ts";

class FakeSink extends EventEmitter implements SseSink {
  destroyed = false;
  writes: string[] = [];
  ended = false;
  full = false;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return !this.full;
  }
  end(): void {
    this.ended = true;
  }
}

const delta = (text: string) => ({ type: "text_delta" as const, contentIndex: 0, delta: text });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("SseWriter", () => {
  it("coalesces a burst of events into one write, in order", async () => {
    const sink = new FakeSink();
    const writer = new SseWriter(sink);
    await Promise.all(["a", "b", "c"].map((text) => writer.send(delta(text))));
    expect(sink.writes).toEqual([]);
    await tick();
    expect(sink.writes).toHaveLength(1);
    expect(sink.writes[0]?.match(/"delta":"(\w)"/g)).toEqual(['"delta":"a"', '"delta":"b"', '"delta":"c"']);
  });

  it("writes paced events as they come", async () => {
    const sink = new FakeSink();
    const writer = new SseWriter(sink);
    await writer.send(delta("a"));
    await tick();
    await writer.send(delta("b"));
    await tick();
    expect(sink.writes).toHaveLength(2);
  });

  it("waits for drain when the socket is full, then goes on", async () => {
    const sink = new FakeSink();
    sink.full = true;
    const writer = new SseWriter(sink, 10);
    let accepted = false;
    const sending = writer.send(delta("long enough to pass the mark")).then(() => (accepted = true));
    await tick();
    expect(accepted).toBe(false);
    sink.emit("drain");
    await sending;
    expect(accepted).toBe(true);
  });

  it("flushes what is left on end and stops writing to a destroyed socket", async () => {
    const sink = new FakeSink();
    const writer = new SseWriter(sink);
    await writer.send(delta("last"));
    writer.end();
    expect(sink.writes).toHaveLength(1);
    expect(sink.ended).toBe(true);
    sink.destroyed = true;
    await writer.send(delta("after"));
    await tick();
    expect(sink.writes).toHaveLength(1);
  });
});
