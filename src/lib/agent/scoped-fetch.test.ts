import { mirrorTestModel } from "./mirror-model.test-support.ts";
import { streamProxy } from "@earendil-works/pi-agent-core";
import { normalizeContext } from "@earendil-works/pi-ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withFetch } from "./scoped-fetch.ts";

const model = mirrorTestModel();

const reply = () =>
  new Response(
    [
      { type: "start" },
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "in the page" },
      { type: "text_end", contentIndex: 0 },
      {
        type: "done",
        reason: "stop",
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
      },
    ]
      .map((event) => `data: ${JSON.stringify(event)}\n\n`)
      .join(""),
    { headers: { "Content-Type": "text/event-stream" } },
  );

afterEach(() => vi.unstubAllGlobals());

describe("withFetch", () => {
  it("answers pi's own streamProxy request, and only that one: the page's fetch is back at once", async () => {
    const network = vi.fn<typeof fetch>(async () => new Response("network", { status: 500 }));
    vi.stubGlobal("fetch", network);
    const transport = vi.fn<typeof fetch>(async () => reply());

    const stream = withFetch(transport, () =>
      streamProxy(model, normalizeContext({ messages: [] }), {
        proxyUrl: "http://in-page.invalid",
        authToken: "",
      }),
    );
    expect(globalThis.fetch).toBe(network);
    const message = await stream.result();

    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([{ type: "text", text: "in the page" }]);
    expect(transport).toHaveBeenCalledTimes(1);
    expect(String(transport.mock.calls[0]?.[0])).toBe("http://in-page.invalid/api/stream");
    expect(network).not.toHaveBeenCalled();
  });

  it("restores the page's fetch even when the call throws", () => {
    const network = vi.fn<typeof fetch>();
    vi.stubGlobal("fetch", network);
    expect(() =>
      withFetch(vi.fn<typeof fetch>(), () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(globalThis.fetch).toBe(network);
  });

  it("refuses a call that did not fetch at once, rather than letting it reach the network later", () => {
    expect(() => withFetch(vi.fn<typeof fetch>(), () => 1)).toThrow(/did not send its request at once/);
  });
});
