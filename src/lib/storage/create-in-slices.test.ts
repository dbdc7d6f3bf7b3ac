import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { chainEntries } from "../messages/entries.ts";
import { createUserMessage } from "../messages/factories.ts";
import { IdbSessionStore } from "./idb-store.ts";
import { testSessionMeta } from "./session-meta.test-support.ts";

/** A session of `count` entries, each a user message of `chars` characters. */
function entries(count: number, chars = 200) {
  return chainEntries(
    Array.from({ length: count }, (_, index) => createUserMessage(`${index} ${"x".repeat(chars)}`)),
    null,
  );
}

describe("Large imports freeze the tab: a large session is stored in slices", () => {
  it("hands a large session to storage in several slices, each reported, and stores all of it at once", async () => {
    const store = await IdbSessionStore.open({ factory: new IDBFactory() });
    const all = entries(20_000);
    const reported: number[] = [];
    const { meta } = await store.createSession(testSessionMeta("big"), all, {
      onProgress: (done, total) => {
        expect(total).toBe(all.length);
        reported.push(done);
      },
    });
    // More than one slice, each further than the last, the last at the end.
    expect(reported.length).toBeGreaterThan(1);
    expect(reported).toEqual([...reported].sort((a, b) => a - b));
    expect(reported.at(-1)).toBe(all.length);
    const loaded = await store.loadSession("big");
    expect(loaded?.records.map((record) => record.entry)).toEqual(all);
    expect(meta.messageCount).toBe(all.length);
  });

  it("stores nothing when the import is cancelled between slices, and keeps what was there", async () => {
    const store = await IdbSessionStore.open({ factory: new IDBFactory() });
    await store.createSession(testSessionMeta("kept"), entries(3));
    const controller = new AbortController();
    const cancelled = store.createSession(testSessionMeta("cancelled"), entries(20_000), {
      signal: controller.signal,
      onProgress: (done) => {
        if (done > 0) controller.abort(new DOMException("cancelled", "AbortError"));
      },
    });
    await expect(cancelled).rejects.toThrow("cancelled");
    expect(await store.loadSession("cancelled")).toBeUndefined();
    expect((await store.listSessions()).sessions.map((meta) => meta.id)).toEqual(["kept"]);
    expect((await store.loadSession("kept"))?.records).toHaveLength(3);
  });

  it("stores nothing when cancelled before it starts", async () => {
    const store = await IdbSessionStore.open({ factory: new IDBFactory() });
    const controller = new AbortController();
    controller.abort(new DOMException("cancelled", "AbortError"));
    await expect(
      store.createSession(testSessionMeta("never"), entries(10), { signal: controller.signal }),
    ).rejects.toThrow("cancelled");
    expect((await store.listSessions()).sessions).toEqual([]);
  });
});
