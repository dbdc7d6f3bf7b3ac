import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { auth, events, streamBody, TOKEN, useLoopbackProxy, waitFor } from "./api-handler.test-support.ts";

/**
 * Clients that are slow at either end: one that stops reading the stream, and one whose request body
 * trickles in or goes silent. Neither may hold memory, a stream slot or an upstream request for long.
 */

const loopback = useLoopbackProxy();
const { listen, send } = loopback;

/** A raw connection that sends a request and then never reads a byte of the answer. */
function nonReadingClient(targetPort: number, body: string): Socket {
  const socket = connect(targetPort, "127.0.0.1");
  socket.pause();
  socket.on("error", () => undefined);
  socket.write(
    `POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

const flood = (megabytes: number) =>
  streamBody("local", "fixture-flood", [{ role: "user", content: `flood ${megabytes}`, timestamp: 1 }]);

describe("a client that stops reading", () => {
  it("is let go after the read timeout, and its upstream request is aborted", async () => {
    const log: string[] = [];
    const proxy = await listen({
      clientReadTimeoutMs: 300,
      maxUnsentBytes: 1024 * 1024 * 1024,
      log: (line) => log.push(line),
    });
    const before = loopback.fixture.events.closedEarly;
    const client = nonReadingClient(proxy.port, flood(400));
    try {
      await waitFor(() => log.some((line) => line.includes("it read nothing for 300 ms")), 15_000);
      await waitFor(() => loopback.fixture.events.closedEarly === before + 1);
    } finally {
      client.destroy();
      proxy.server.close();
    }
  }, 30_000);

  it("is let go once it is more than the byte limit behind, so a stream's memory is bounded", async () => {
    const log: string[] = [];
    const proxy = await listen({
      clientReadTimeoutMs: 60_000,
      maxUnsentBytes: 512 * 1024,
      log: (line) => log.push(line),
    });
    const before = loopback.fixture.events.closedEarly;
    const client = nonReadingClient(proxy.port, flood(400));
    try {
      await waitFor(() => log.some((line) => line.includes("it fell more than 512 kB behind")), 15_000);
      await waitFor(() => loopback.fixture.events.closedEarly === before + 1);
    } finally {
      client.destroy();
      proxy.server.close();
    }
  }, 30_000);

  it("does not touch a client that reads as fast as the stream comes, however large the reply", async () => {
    const log: string[] = [];
    const proxy = await listen({
      clientReadTimeoutMs: 2_000,
      maxUnsentBytes: 256 * 1024,
      log: (line) => log.push(line),
    });
    try {
      const reply = await send("/api/stream", { method: "POST", headers: auth, body: flood(16) }, proxy.port);
      const list = events(reply.body);
      expect(list.at(-1)?.type).toBe("done");
      const text = list.filter((event) => event.type === "text_delta").map((event) => String(event.delta));
      expect(text.join("").length).toBe(16 * 1024 * 1024);
      expect(log).toEqual([]);
    } finally {
      proxy.server.close();
    }
    // 16 MB through a real socket: seconds on a busy machine, and it must finish, not race a clock.
  }, 60_000);
});

describe("request bodies", () => {
  /** Sends the headers and `firstBytes` of the body, then one more byte per interval until stopped. */
  function tricklingUpload(targetPort: number, body: string, firstBytes: number, intervalMs: number) {
    const socket = connect(targetPort, "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", () => undefined);
    socket.write(
      `POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, firstBytes)}`,
    );
    let sent = firstBytes;
    const timer = setInterval(() => {
      if (sent < body.length - 1) socket.write(body.charAt(sent++));
    }, intervalMs);
    return {
      answer: () => answer,
      stop: () => clearInterval(timer),
      destroy: () => {
        clearInterval(timer);
        socket.destroy();
      },
    };
  }

  it("does not take a stream slot while the body is still arriving", async () => {
    const proxy = await listen({ maxConcurrentStreams: 1, bodyIdleTimeoutMs: 1_000 });
    const uploads = [0, 1].map(() =>
      tricklingUpload(proxy.port, streamBody("mirror", "mirror-instant"), 10, 50),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reply = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") },
        proxy.port,
      );
      expect(reply.status).toBe(200);
      expect(events(reply.body).at(-1)?.type).toBe("done");
    } finally {
      for (const upload of uploads) upload.destroy();
      proxy.server.close();
    }
  });

  it("holds no more request bodies at once than MAX_HELD_BODY_BYTES: past it 429, and room again once one ends", async () => {
    // Two uploads of ~40 kB each fill an 80 kB budget while they trickle; a third large one is refused at
    // once, before a byte of it is read, while a small one still fits.
    const proxy = await listen({
      maxBodyBytes: 64 * 1024,
      maxHeldBodyBytes: 80 * 1024,
      bodyIdleTimeoutMs: 5_000,
    });
    const large = (label: string) =>
      streamBody("mirror", "mirror-instant", [
        { role: "user", content: `${label} ${"x".repeat(40_000)}`, timestamp: 1 },
      ]);
    const uploads = [large("one"), large("two")].map((body) => tricklingUpload(proxy.port, body, 100, 50));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: large("three") },
        proxy.port,
      );
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error).toMatch(
        /holds at most 80 kB of request bodies at a time \(MAX_HELD_BODY_BYTES\)/,
      );
      const small = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: streamBody("mirror", "mirror-instant") },
        proxy.port,
      );
      expect(small.status).toBe(200);
      // One upload gives up: its bytes are given back, and a large body fits again.
      uploads[0]?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const admitted = await send(
        "/api/stream",
        { method: "POST", headers: auth, body: large("four") },
        proxy.port,
      );
      expect(admitted.status).toBe(200);
      expect(events(admitted.body).at(-1)?.type).toBe("done");
    } finally {
      for (const upload of uploads) upload.destroy();
      proxy.server.close();
    }
  });

  it("answers 408 and closes the connection when the body goes silent", async () => {
    const proxy = await listen({ bodyIdleTimeoutMs: 300 });
    const upload = tricklingUpload(proxy.port, streamBody("mirror", "mirror-instant"), 10, 50);
    try {
      await new Promise((resolve) => setTimeout(resolve, 400));
      // Still trickling: a body that keeps arriving is not cut off.
      expect(upload.answer()).toBe("");
      upload.stop();
      await waitFor(() => upload.answer().includes("\r\n\r\n{"), 5_000);
      expect(upload.answer()).toMatch(/^HTTP\/1\.1 408/);
      expect(upload.answer()).toContain("The request body stalled: nothing arrived for 300 ms.");
      expect(upload.answer().toLowerCase()).toContain("x-content-type-options: nosniff");
    } finally {
      upload.destroy();
      proxy.server.close();
    }
  });
});
