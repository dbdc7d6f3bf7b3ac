import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../../storage/memory-store.ts";
import type { CallRecord } from "../../storage/records.ts";
import { testNewCall } from "../../storage/call-record.test-support.ts";
import type { LatestCallsRequest } from "../../storage/session-store.ts";
import { testSessionMeta } from "../../storage/session-meta.test-support.ts";
import { CallLog } from "./call-log.svelte.ts";
import { LATEST_CALLS } from "./latest-calls.ts";

/** A store whose reading of all the calls waits, once it has told the latest ones, until `release()`. */
class SlowCallsStore extends MemorySessionStore {
  #release: () => void = () => undefined;
  #told: () => void = () => undefined;
  /** Resolves once the latest calls were told. */
  readonly told = new Promise<void>((resolve) => (this.#told = resolve));

  release(): void {
    this.#release();
  }

  override async listCalls(
    id: string,
    latest?: LatestCallsRequest,
  ): Promise<{ calls: CallRecord[]; warnings: string[] }> {
    const read = await super.listCalls(id, latest);
    this.#told();
    await new Promise<void>((resolve) => (this.#release = resolve));
    return read;
  }
}

describe("the calls of a session, read for the calls view", () => {
  it("shows the latest calls at the end of the whole list's length while the rest is read, and keeps them", async () => {
    const store = new SlowCallsStore();
    await store.createSession(testSessionMeta("s"), []);
    const count = LATEST_CALLS + 30;
    for (let index = 0; index < count; index++)
      await store.appendCall("s", testNewCall({ id: `call-${index}`, startedAt: index }));
    const log = new CallLog(store, "s", () => count);

    const loading = log.load();
    await store.told;
    expect(log.state).toBe("loading");
    const latest = log.latest ?? [];
    expect(latest).toHaveLength(count);
    expect(latest.filter((call) => call === undefined)).toHaveLength(count - LATEST_CALLS);
    expect(latest.at(-1)?.id).toBe(`call-${count - 1}`);
    expect(latest[count - LATEST_CALLS]?.id).toBe(`call-${count - LATEST_CALLS}`);

    store.release();
    await loading;
    expect(log.state).toBe("ready");
    expect(log.latest).toBeUndefined();
    expect(log.calls.map((call) => call.id)).toEqual(
      Array.from({ length: count }, (_, index) => `call-${index}`),
    );
    // The calls shown first are the same objects: a row, or the call open, does not change.
    expect(log.calls.at(-1)).toBe(latest.at(-1));
  });

  it("reads again without showing a part of the list (another tab recorded a call)", async () => {
    const store = new MemorySessionStore();
    await store.createSession(testSessionMeta("s"), []);
    await store.appendCall("s", testNewCall({ id: "call-0", startedAt: 0 }));
    const log = new CallLog(store, "s", () => 2);
    await log.load();
    await store.appendCall("s", testNewCall({ id: "call-1", startedAt: 1 }));
    const seen: (readonly (CallRecord | undefined)[] | undefined)[] = [];
    const again = log.load({ again: true });
    seen.push(log.latest);
    await again;
    seen.push(log.latest);
    expect(seen).toEqual([undefined, undefined]);
    expect(log.calls.map((call) => call.id)).toEqual(["call-0", "call-1"]);
  });
});
