import { describe, expect, it } from "vitest";
import { IN_PAGE_PROXY_URL } from "./proxy-connection.svelte.ts";
import { connection, model, network, PAGE_URL, REMOTE, TOKEN } from "./proxy-connection.test-support.ts";

/**
 * What the connection reads of a call's provider payload: kept by the proxy that served the call, or by
 * the page for an offline model it answered itself; and the next call's payload, previewed.
 */

describe("the payload of a call", () => {
  it("is asked of the proxy that served it, with the token it used then, wherever requests go now", async () => {
    const net = network();
    const { instance } = connection(net);
    const route = await instance.route(model("openai", "gpt"));
    route.sent?.("served-by-own-1");
    await instance.connect({ url: REMOTE, token: TOKEN });
    expect(instance.endpoint?.kind).toBe("remote");
    expect(await instance.payload("served-by-own-1")).toEqual({
      payload: { kept: "all", bytes: 2, value: { who: "own", call: "served-by-own-1" } },
    });
    const asked = net.calls.at(-1);
    expect(asked?.url).toBe(`${PAGE_URL}/api/calls/served-by-own-1/payload`);
    expect(new Headers(asked?.init?.headers).get("Authorization")).toBe("Bearer own-1");
    // A call this page did not send (another tab's, before a reload) is asked of the proxy in use.
    expect((await instance.payload("sent-elsewhere-1")).payload).toMatchObject({ value: { who: "remote" } });
  });

  it("carries the proxy's sentence when it has none", async () => {
    const net = network();
    const { instance } = connection(net);
    await expect(instance.payload("unknown-call-123")).rejects.toThrow(
      "No payload is kept for call unknown-call-123: this proxy did not serve that call.",
    );
  });

  it("of an offline model answered in the page is the page's: the transformed messages it answered from", async () => {
    const net = network();
    net.state.own = false;
    const { instance } = connection(net);
    const route = await instance.route(model("mirror", "mirror-instant"));
    const messages = [{ role: "user", content: "hello page", timestamp: 1 }];
    const body = JSON.stringify({
      model: { provider: "mirror", id: "mirror-instant" },
      context: { messages },
      options: { metadata: { callId: "in-page-call-1" } },
    });
    await (await route.transport?.(`${IN_PAGE_PROXY_URL}/api/stream`, { method: "POST", body }))?.text();
    route.sent?.("in-page-call-1");
    expect(await instance.payload("in-page-call-1")).toEqual({
      payload: {
        kept: "all",
        bytes: expect.any(Number),
        value: { model: "mirror-instant", messages, options: {} },
      },
    });
    expect(net.calls.some((call) => call.url.includes("/api/calls/"))).toBe(false);
  });

  it("of an offline model answered in the page while the proxy was gone is found in the page", async () => {
    const net = network();
    const { instance } = connection(net);
    const route = await instance.route(model("mirror", "mirror-instant"));
    net.state.own = false;
    const body = JSON.stringify({
      model: { provider: "mirror", id: "mirror-instant" },
      context: { messages: [{ role: "user", content: "still there?", timestamp: 1 }] },
      options: { metadata: { callId: "fallback-call-1" } },
    });
    await (await route.transport?.(`${PAGE_URL}/api/stream`, { method: "POST", body }))?.text();
    route.sent?.("fallback-call-1");
    const { payload } = await instance.payload("fallback-call-1");
    expect(payload).toMatchObject({ kept: "all", value: { model: "mirror-instant" } });
  });
});

describe("previewing the next call", () => {
  const request = {
    model: model("openai", "gpt"),
    context: { messages: [{ role: "user" as const, content: "next", timestamp: 1 }] },
    options: { maxTokens: 10 },
  };

  it("posts /api/stream's body to the proxy's /api/preview, with the token", async () => {
    const net = network();
    const { instance } = connection(net);
    const { payload } = await instance.preview(request);
    expect(payload).toEqual({
      kept: "all",
      bytes: 2,
      value: {
        who: "own",
        body: {
          model: { provider: "openai", id: "gpt" },
          context: request.context,
          options: { maxTokens: 10 },
        },
      },
    });
    expect(new Headers(net.calls.at(-1)?.init?.headers).get("Authorization")).toBe("Bearer own-1");
  });

  it("previews an offline model in the page without a proxy", async () => {
    const net = network();
    net.state.own = false;
    const { instance } = connection(net);
    const { payload } = await instance.preview({ ...request, model: model("mirror", "mirror") });
    expect(payload).toMatchObject({
      kept: "all",
      value: { model: "mirror", messages: request.context.messages },
    });
  });
});
