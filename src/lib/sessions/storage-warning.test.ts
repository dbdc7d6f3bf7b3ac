import { describe, expect, it } from "vitest";
import {
  NEARLY_FULL_SHARE,
  SIGNIFICANT_USAGE_BYTES,
  storageWarning,
  usedShare,
  type StorageState,
} from "./storage-warning.ts";

const GB = 1024 ** 3;
const healthy: StorageState = {
  kind: "indexeddb",
  info: { usage: 10 * 1024 ** 2, quota: 10 * GB, persisted: true },
  persistenceRefused: false,
  failingSessions: 0,
};

describe("storage warning", () => {
  it("stays quiet while storage is healthy, or before the browser has said how it is", () => {
    expect(storageWarning(healthy)).toBeUndefined();
    expect(storageWarning({ ...healthy, info: undefined })).toBeUndefined();
  });

  it("warns when the sessions live in memory only, before anything else", () => {
    expect(storageWarning({ ...healthy, kind: "memory", failingSessions: 2 })).toEqual({
      kind: "memory",
      text: "In memory only: sessions end with this tab",
    });
    expect(storageWarning({ ...healthy, kind: "memory", info: undefined })?.kind).toBe("memory");
  });

  it("warns when a session could not write its changes, counting the sessions", () => {
    expect(storageWarning({ ...healthy, failingSessions: 1 })?.text).toBe(
      "A session has changes that could not be saved",
    );
    expect(storageWarning({ ...healthy, failingSessions: 3 })?.text).toBe(
      "3 sessions have changes that could not be saved",
    );
  });

  it("warns from the nearly-full share of the quota on, not below it", () => {
    const at = (usage: number) =>
      storageWarning({ ...healthy, info: { usage, quota: 1000, persisted: true } });
    expect(at(NEARLY_FULL_SHARE * 1000 - 1)).toBeUndefined();
    expect(at(NEARLY_FULL_SHARE * 1000)).toEqual({ kind: "nearly-full", text: "Storage 80% full" });
    expect(at(999)?.text).toBe("Storage 99% full");
    // A quota the browser does not report is not a full one.
    expect(storageWarning({ ...healthy, info: { usage: 5000, quota: 0, persisted: true } })).toBeUndefined();
  });

  it("warns of eviction only when persistence was refused and much is stored", () => {
    const notKept = { usage: SIGNIFICANT_USAGE_BYTES, quota: 10 * GB, persisted: false };
    expect(storageWarning({ ...healthy, info: notKept, persistenceRefused: true })).toEqual({
      kind: "eviction-risk",
      text: "50 MB stored that the browser may evict",
    });
    // Little stored, never asked, or granted after all: quiet.
    expect(
      storageWarning({
        ...healthy,
        info: { ...notKept, usage: SIGNIFICANT_USAGE_BYTES - 1 },
        persistenceRefused: true,
      }),
    ).toBeUndefined();
    expect(storageWarning({ ...healthy, info: notKept, persistenceRefused: false })).toBeUndefined();
    expect(
      storageWarning({ ...healthy, info: { ...notKept, persisted: true }, persistenceRefused: true }),
    ).toBeUndefined();
  });

  it("puts a failed write before a full disk, and a full disk before eviction", () => {
    const full = { usage: 9 * GB, quota: 10 * GB, persisted: false };
    expect(
      storageWarning({ ...healthy, info: full, persistenceRefused: true, failingSessions: 1 })?.kind,
    ).toBe("unsaved");
    expect(storageWarning({ ...healthy, info: full, persistenceRefused: true })?.kind).toBe("nearly-full");
  });

  it("reads the used share within 0 and 1", () => {
    expect(usedShare({ usage: 50, quota: 200, persisted: false })).toBe(0.25);
    expect(usedShare({ usage: 500, quota: 200, persisted: false })).toBe(1);
    expect(usedShare({ usage: 5, quota: 0, persisted: false })).toBeUndefined();
  });
});
