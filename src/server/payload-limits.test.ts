import { describe, expect, it } from "vitest";
import { sendRequest } from "./api-handler.test-support.ts";
import { auth, call, hello, payloadOf, usePayloadLoopback } from "./payload-capture.test-support.ts";

/** How much of the payloads the proxy keeps: per payload, all together, and for how long. */

const loopback = usePayloadLoopback();
const { proxy } = loopback;

describe("the limits on kept payloads", () => {
  it("keeps the first bytes of a payload over MAX_PAYLOAD_CAPTURE_BYTES as text, with its full size", async () => {
    const { port, server } = await proxy({ maxPayloadCaptureBytes: 300 });
    try {
      const long = [...hello, { role: "user", content: "é".repeat(400), timestamp: 2 }];
      await call(port, "long-call-000001", "fixture-tools", long);
      const full = JSON.stringify(loopback.fixture.requests[0]?.body);
      const { payload } = await payloadOf(port, "long-call-000001");
      expect(payload).toEqual({
        kept: "truncated",
        text: full.slice(0, payload.kept === "truncated" ? payload.text.length : 0),
        bytes: Buffer.byteLength(full),
      });
      expect(payload.kept === "truncated" && Buffer.byteLength(payload.text)).toBeLessThanOrEqual(300);
      expect(payload.kept === "truncated" && payload.text.length).toBeGreaterThan(100);
    } finally {
      server.close();
    }
  });

  it("drops the oldest payloads past MAX_PAYLOAD_STORE_BYTES", async () => {
    const size = (await sizeOfOneCall()) + 300;
    const { port, server } = await proxy({ maxPayloadStoreBytes: size * 2 + 100 });
    try {
      for (const id of ["oldest-call-0001", "middle-call-0001", "newest-call-0001"]) {
        await call(port, id, "fixture-tools");
      }
      expect((await sendRequest(port, "/api/calls/oldest-call-0001/payload", { headers: auth })).status).toBe(
        404,
      );
      expect((await payloadOf(port, "middle-call-0001")).payload.kept).toBe("all");
      expect((await payloadOf(port, "newest-call-0001")).payload.kept).toBe("all");
    } finally {
      server.close();
    }
  });

  it("drops payloads older than PAYLOAD_TTL_MS", async () => {
    let now = 1_000_000;
    const { port, server } = await proxy({ payloadTtlMs: 60_000, now: () => now });
    try {
      await call(port, "aging-call-00001", "fixture-tools");
      now += 59_000;
      expect((await payloadOf(port, "aging-call-00001")).payload.kept).toBe("all");
      now += 1_000;
      const gone = await sendRequest(port, "/api/calls/aging-call-00001/payload", { headers: auth });
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.body).error).toMatch(/kept 1 min, PAYLOAD_TTL_MS/);
    } finally {
      server.close();
    }
  });

  it("keeps none when MAX_PAYLOAD_STORE_BYTES is 0, and says so", async () => {
    const { port, server } = await proxy({ maxPayloadStoreBytes: 0 });
    try {
      await call(port, "off-call-0000001", "fixture-tools");
      expect((await payloadOf(port, "off-call-0000001")).payload).toEqual({
        kept: "none",
        bytes: 0,
        reason: "this proxy keeps no provider payloads (it was started with MAX_PAYLOAD_STORE_BYTES=0)",
      });
    } finally {
      server.close();
    }
  });
});

/** The bytes one plain call's payload takes, measured on a proxy of its own. */
async function sizeOfOneCall(): Promise<number> {
  const { port, server } = await proxy();
  try {
    await call(port, "measure-call-001", "fixture-tools");
    loopback.fixture.requests.length = 0;
    return (await payloadOf(port, "measure-call-001")).payload.bytes;
  } finally {
    server.close();
  }
}
