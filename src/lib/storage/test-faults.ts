import FDBObjectStore from "fake-indexeddb/lib/FDBObjectStore";

/**
 * Test support, never used by the app: make the next `put` into fake-indexeddb fail the way a full disk
 * fails in a browser — asynchronously, as the request's error, which aborts the whole transaction with a
 * QuotaExceededError — rather than by a synchronous throw that no browser produces for a full disk.
 */
interface RawStore {
  storeRecord: (...args: unknown[]) => unknown;
}

export function failNextIdbPut(errorName = "QuotaExceededError"): void {
  const prototype = FDBObjectStore.prototype as unknown as { put: (...args: unknown[]) => unknown };
  const put = prototype.put;
  prototype.put = function (this: { _rawObjectStore: RawStore }, ...args: unknown[]) {
    prototype.put = put;
    const raw = this._rawObjectStore;
    const storeRecord = raw.storeRecord;
    // The request binds its operation now; only this one request fails, when it runs.
    raw.storeRecord = () => {
      throw new DOMException("The quota has been exceeded.", errorName);
    };
    try {
      return put.apply(this, args);
    } finally {
      raw.storeRecord = storeRecord;
    }
  };
}
