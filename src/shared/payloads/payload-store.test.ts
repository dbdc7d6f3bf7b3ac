import { describe, expect, it } from "vitest";
import { PayloadStore, type PayloadLimits } from "./payload-store.ts";

const model = { provider: "p", modelId: "m" };
const limits = (overrides: Partial<PayloadLimits> = {}): PayloadLimits => ({
  maxPayloadBytes: 1_000,
  maxStoreBytes: 10_000,
  ttlMs: 60_000,
  ...overrides,
});

describe("PayloadStore", () => {
  it("holds a call from its start: building, then its payload, or why there is none", () => {
    const store = new PayloadStore(limits());
    store.begin("call-a", model);
    expect(store.read("call-a")).toEqual({ model, payload: undefined });
    store.keep("call-a", model, { body: 1 });
    expect(store.read("call-a")?.payload).toEqual({ kept: "all", json: '{"body":1}', bytes: 10 });
    // A payload kept is never replaced by a failure reported later.
    store.settle("call-a", "too late");
    expect(store.read("call-a")?.payload?.kept).toBe("all");

    store.begin("call-b", model);
    store.settle("call-b", "the provider failed before building its request: boom");
    expect(store.read("call-b")?.payload).toEqual({
      kept: "none",
      bytes: 0,
      reason: "the provider failed before building its request: boom",
    });
    expect(store.read("never")).toBeUndefined();
  });

  it("cuts each payload at its limit", () => {
    const store = new PayloadStore(limits({ maxPayloadBytes: 10 }));
    store.keep("call", model, { text: "x".repeat(100) });
    expect(store.read("call")?.payload).toEqual({ kept: "truncated", text: '{"text":"x', bytes: 111 });
  });

  it("drops the oldest calls first once the total is over its limit, never the one just kept", () => {
    const store = new PayloadStore(limits({ maxStoreBytes: 2_000 }));
    const body = { text: "y".repeat(500) };
    for (const id of ["first", "second", "third"]) store.keep(id, model, body);
    expect(store.read("first")).toBeUndefined();
    expect(store.read("second")?.payload?.kept).toBe("all");
    expect(store.read("third")?.payload?.kept).toBe("all");
    expect(store.bytes).toBeLessThanOrEqual(2_000);
    expect(store.size).toBe(2);
  });

  it("counts calls without a payload too, so they cannot pile up", () => {
    const store = new PayloadStore(limits({ maxStoreBytes: 3_000 }));
    for (let index = 0; index < 100; index++) store.begin(`pending-${index}`, model);
    expect(store.size).toBeLessThan(20);
    expect(store.read("pending-99")).toBeDefined();
    expect(store.read("pending-0")).toBeUndefined();
  });

  it("keeps the reason rather than a payload larger than the whole store", () => {
    const store = new PayloadStore(limits({ maxPayloadBytes: 5_000, maxStoreBytes: 1_000 }));
    store.keep("small", model, { a: 1 });
    store.keep("huge", model, { text: "z".repeat(3_000) });
    expect(store.read("small")?.payload?.kept).toBe("all");
    expect(store.read("huge")?.payload).toMatchObject({
      kept: "none",
      bytes: 3_011,
      reason: expect.stringMatching(/larger than the proxy keeps of all payloads together/),
    });
  });

  it("forgets calls older than the TTL, counted from when each was last written", () => {
    let now = 0;
    const store = new PayloadStore(limits({ ttlMs: 1_000 }), () => now);
    store.begin("early", model);
    now = 600;
    store.begin("late", model);
    now = 900;
    store.keep("early", model, { kept: "now" });
    now = 1_599;
    expect(store.read("late")).toBeDefined();
    now = 1_600;
    expect(store.read("late")).toBeUndefined();
    expect(store.read("early")?.payload?.kept).toBe("all");
    now = 1_900;
    expect(store.read("early")).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it("keeps nothing when its total is 0", () => {
    const store = new PayloadStore(limits({ maxStoreBytes: 0 }));
    store.begin("call", model);
    store.keep("call", model, { a: 1 });
    expect(store.enabled).toBe(false);
    expect(store.read("call")).toBeUndefined();
  });
});
