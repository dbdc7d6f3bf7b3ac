import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { heldBytes } from "../shared/payloads/captured-json.ts";
import { PayloadStore } from "../shared/payloads/payload-store.ts";
import { payloadReplacer } from "./payload-redaction.ts";
import { createRedactor } from "./redact.ts";

/**
 * What the payload store holds in the engine's memory, not only what it counts: the heap after keeping
 * many large payloads, each cut to the per-payload limit, measured after a full garbage collection.
 */

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const MB = 1024 * 1024;

describe("the payload store holds ~20× its limit", () => {
  it("holds what it counts: a kept prefix of a large payload is a copy, never a view of the whole", () => {
    const limits = { maxPayloadBytes: 128 * 1024, maxStoreBytes: 2 * MB, ttlMs: 60_000 };
    const store = new PayloadStore(limits);
    const replacer = payloadReplacer(createRedactor({}));
    const before = heapAfterCollection();
    for (let call = 0; call < 24; call++) {
      // A fresh 4 MB body per call, as each request's payload is.
      const payload = { model: "m", messages: [{ role: "user", content: `${call} ${"x".repeat(4 * MB)}` }] };
      store.keep(`call-${String(call).padStart(8, "0")}`, { provider: "p", modelId: "m" }, payload, replacer);
    }
    const grown = heapAfterCollection() - before;
    expect(store.size).toBeGreaterThan(10);
    expect(store.bytes).toBeLessThanOrEqual(limits.maxStoreBytes);
    // Held: the kept prefixes (2 MB counted) and bookkeeping. A view into each body would hold 4 MB per call.
    expect(grown, `heap grew ${(grown / MB).toFixed(1)} MB`).toBeLessThan(limits.maxStoreBytes + 4 * MB);
  });

  it("counts text the engine stores two bytes a character as two bytes a character", () => {
    const store = new PayloadStore({ maxPayloadBytes: 1_000_000, maxStoreBytes: 10_000_000, ttlMs: 60_000 });
    store.keep("call-euro-0001", { provider: "p", modelId: "m" }, { text: "€".repeat(1_000) });
    const kept = store.read("call-euro-0001")?.payload;
    const json = kept?.kept === "all" ? kept.json : "";
    expect(heldBytes(json)).toBe(2 * json.length);
    expect(store.bytes).toBeGreaterThanOrEqual(2 * json.length);
    expect(heldBytes("é plain Latin-1")).toBe("é plain Latin-1".length);
  });
});
