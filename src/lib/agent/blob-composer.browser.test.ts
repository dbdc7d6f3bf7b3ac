import { normalizeContext } from "@earendil-works/pi-ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { zeroUsage } from "../../shared/usage.ts";
import { createUserMessage } from "../messages/factories.ts";
import { BlobComposer, type ComposerWorker } from "./blob-composer.ts";
import { mirrorTestModel } from "./mirror-model.test-support.ts";
import { createProxyStreamFn } from "./proxy-stream.ts";
import type { StreamRouter } from "./stream-route.ts";

/**
 * In Chromium, where a new Blob on the page's thread waits for the browser's process to register it: the
 * request's body is composed in a worker, and is the same bytes; a page without the worker composes it itself.
 */

afterEach(() => {
  vi.unstubAllGlobals();
});

const done = () =>
  new Response(`data: ${JSON.stringify({ type: "done", reason: "stop", usage: zeroUsage() })}\n\n`, {
    headers: { "Content-Type": "text/event-stream" },
  });

describe("a request's body", () => {
  it("is composed off the page's thread: the page makes no Blob of it, and sends pi's JSON", async () => {
    const RealBlob = Blob;
    /** The first part of each Blob the page made: a body starts with pi's `{"model":`. */
    const madeOnPage: string[] = [];
    vi.stubGlobal(
      "Blob",
      new Proxy(RealBlob, {
        construct(target, args: ConstructorParameters<typeof Blob>) {
          const first = args[0]?.[0];
          madeOnPage.push(typeof first === "string" ? first.slice(0, 12) : "");
          return new target(...args);
        },
      }),
    );
    let sent: unknown;
    const router: StreamRouter = {
      route: async () => ({
        proxyUrl: "http://proxy.test",
        authToken: "t",
        transport: async (_input, init) => {
          sent = init?.body;
          return done();
        },
        settled: () => undefined,
      }),
    };
    const messages = Array.from({ length: 300 }, (_, index) => createUserMessage(`message ${index}`));
    const streamFn = createProxyStreamFn({ router, onRequest: () => "call-id-0001" });
    const stream = await streamFn(mirrorTestModel(), normalizeContext({ messages }), {});
    await stream.result();

    expect(sent).toBeInstanceOf(RealBlob);
    const body = JSON.parse(await (sent as Blob).text()) as { context: { messages: unknown[] } };
    expect(body.context.messages).toEqual(JSON.parse(JSON.stringify(messages)));
    expect(madeOnPage.filter((first) => first.startsWith('{"model":'))).toEqual([]);
  });
});

describe("the Blob composer", () => {
  it("answers each of several Blobs asked for at once with its own parts, Blobs among them", async () => {
    const composer = new BlobComposer();
    const inner = new Blob(["inner"]);
    const made = await Promise.all([
      composer.compose(["a", inner, "b"]),
      composer.compose([inner, ",", inner]),
      composer.compose([]),
    ]);
    expect(await Promise.all(made.map((blob) => blob.text()))).toEqual(["ainnerb", "inner,inner", ""]);
  });

  it("composes on the page when no worker can start, or when the worker fails to load", async () => {
    const forbidden = new BlobComposer(() => {
      throw new DOMException("Workers are not allowed here.", "SecurityError");
    });
    expect(await (await forbidden.compose(["x", new Blob(["y"])])).text()).toBe("xy");

    const broken = new BlobComposer(
      () =>
        new Worker(
          URL.createObjectURL(
            new Blob(["throw new Error('this worker never loads')"], { type: "text/javascript" }),
          ),
        ) as unknown as ComposerWorker,
    );
    expect(await (await broken.compose(["before ", "it failed"])).text()).toBe("before it failed");
    expect(await (await broken.compose(["after"])).text()).toBe("after");
  });
});
