import { afterEach, describe, expect, it, vi } from "vitest";
import { Notices } from "../notices/notices.svelte.ts";
import { StorageError } from "../storage/session-store.ts";
import { StorageHealth } from "./storage-health.svelte.ts";
import { SIGNIFICANT_USAGE_BYTES, storageWarning } from "./storage-warning.ts";

const actions = { exportSession: () => undefined, retry: () => undefined };

function fakeStorage(usage: number, quota: number, grants: boolean) {
  let persisted = false;
  return {
    estimate: async () => ({ usage, quota }),
    persisted: async () => persisted,
    persist: async () => (persisted = grants),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("storage health", () => {
  it("warns of eviction once the browser refused to keep much data, and not when it agreed", async () => {
    vi.stubGlobal("navigator", { storage: fakeStorage(SIGNIFICANT_USAGE_BYTES * 2, 10 * 1024 ** 3, false) });
    const refused = new StorageHealth(new Notices());
    await refused.refreshInfo();
    // Not persisted, but never asked: quiet.
    expect(storageWarning(refused)).toBeUndefined();
    expect(await refused.requestPersistence()).toBe(false);
    expect(refused.persistenceRefused).toBe(true);
    expect(storageWarning(refused)?.kind).toBe("eviction-risk");

    vi.stubGlobal("navigator", { storage: fakeStorage(SIGNIFICANT_USAGE_BYTES * 2, 10 * 1024 ** 3, true) });
    const granted = new StorageHealth(new Notices());
    expect(await granted.requestPersistence()).toBe(true);
    expect(granted.info?.persisted).toBe(true);
    expect(storageWarning(granted)).toBeUndefined();
  });

  it("warns while a session has changes it could not write, and stops once they are stored", async () => {
    const health = new StorageHealth(new Notices());
    const error = new StorageError("other", "The write failed.");
    await health.reportUnsaved("a", "A", { unsaved: 2, error }, actions);
    await health.reportUnsaved("b", "B", { unsaved: 1, error }, actions);
    expect(storageWarning(health)?.text).toBe("2 sessions have changes that could not be saved");
    await health.reportUnsaved("a", "A", { unsaved: 0, error: undefined }, actions);
    expect(storageWarning(health)?.text).toBe("A session has changes that could not be saved");
    await health.reportUnsaved("b", "B", { unsaved: 0, error: undefined }, actions);
    expect(storageWarning(health)).toBeUndefined();
  });

  it("warns when the sessions live in memory only", () => {
    const health = new StorageHealth(new Notices());
    health.opened("memory");
    expect(storageWarning(health)?.kind).toBe("memory");
  });
});
