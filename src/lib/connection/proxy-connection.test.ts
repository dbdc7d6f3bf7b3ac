import type { AssistantMessage } from "@earendil-works/pi-ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withFetch } from "../agent/scoped-fetch.ts";
import { zeroUsage } from "../../shared/usage.ts";
import { IN_PAGE_PROXY_URL, ProxyConnection } from "./proxy-connection.svelte.ts";
import {
  connection,
  MemoryStorage,
  model,
  network,
  page,
  PAGE_URL,
  REMOTE,
  TOKEN,
} from "./proxy-connection.test-support.ts";

/**
 * Where a ProxyConnection sends requests: at start, after connecting to a proxy or forgetting it by
 * hand, and when the proxy in use goes away mid-session.
 */

/** A reply that ended in an error, as a route is told of it when the call settles. */
function failed(errorMessage: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "x",
    provider: "x",
    model: "x",
    usage: zeroUsage(),
    stopReason: "error",
    errorMessage,
    timestamp: 0,
  };
}

describe("ProxyConnection at start", () => {
  it("uses the page's own server, with the token it hands out, and never loads the in-page models", async () => {
    const net = network();
    const { instance, loadInPage } = connection(net);
    const route = await instance.route(model("openai", "gpt"));
    expect(instance.endpoint).toEqual({ kind: "own", url: PAGE_URL });
    expect(instance.problem).toBeUndefined();
    expect(route).toMatchObject({ proxyUrl: PAGE_URL, authToken: "own-1", transport: undefined });
    expect((await instance.listModels()).models).toEqual([{ provider: "openai", id: "gpt" }]);
    expect(loadInPage).not.toHaveBeenCalled();
  });

  it("without a proxy, says so and answers the offline models in the page", async () => {
    const net = network();
    net.state.own = false;
    const { instance, loadInPage } = connection(net);
    const route = await instance.route(model("mirror", "mirror"));
    expect(instance.endpoint).toBeUndefined();
    expect(instance.problem?.kind).toBe("none");
    expect(route.proxyUrl).toBe(IN_PAGE_PROXY_URL);
    expect(route.transport).toBeTypeOf("function");
    const { models } = await instance.listModels();
    expect(models.map((entry) => entry.id)).toEqual(["mirror", "mirror-thinking", "mirror-instant"]);
    expect(loadInPage).toHaveBeenCalledTimes(1);
    expect(net.calls.every((call) => !call.url.startsWith(IN_PAGE_PROXY_URL))).toBe(true);
  });

  it("returns to the proxy remembered from last time, sending its token", async () => {
    const net = network();
    const storage = new MemoryStorage();
    storage.setItem("pi-playground:proxy", JSON.stringify({ url: REMOTE, token: TOKEN }));
    const { instance } = connection(net, { storage: storage as unknown as Storage });
    const route = await instance.route(model("local", "remote-model"));
    expect(instance.endpoint).toEqual({ kind: "remote", url: REMOTE });
    expect(route).toMatchObject({ proxyUrl: REMOTE, authToken: TOKEN });
    await instance.listModels();
    const listing = net.calls.find((call) => call.url === `${REMOTE}/api/models`);
    expect(new Headers(listing?.init?.headers).get("Authorization")).toBe(`Bearer ${TOKEN}`);
    expect(net.calls.some((call) => call.url.startsWith(PAGE_URL))).toBe(false);
  });
});

describe("remembered settings", () => {
  it("are checked again before use: a provider key stored by hand is never sent anywhere", async () => {
    const net = network();
    const storage = new MemoryStorage();
    storage.setItem("pi-playground:proxy", JSON.stringify({ url: REMOTE, token: "sk-ant-api03-secret" }));
    const { instance } = connection(net, { storage: storage as unknown as Storage });
    const route = await instance.route(model("mirror", "mirror"));
    expect(route.proxyUrl).toBe(IN_PAGE_PROXY_URL);
    expect(instance.problem?.message).toMatch(/not usable: That looks like a provider API key/);
    expect(JSON.stringify(net.calls)).not.toContain("sk-ant-api03-secret");
  });
});

describe("connecting by hand", () => {
  it("refuses bad input without changing anything", async () => {
    const net = network();
    const { instance, storage } = connection(net);
    await instance.route(model("mirror", "mirror"));
    expect(await instance.connect({ url: "nonsense", token: TOKEN })).toMatchObject({ field: "url" });
    expect(await instance.connect({ url: REMOTE, token: "sk-ant-api-key" })).toMatchObject({
      field: "token",
    });
    expect(instance.endpoint?.kind).toBe("own");
    expect(storage.items.size).toBe(0);
  });

  it("remembers the proxy, and names a wrong token or a refused origin; Mirror stays in the page", async () => {
    const net = network();
    const { instance, storage } = connection(net);
    await instance.route(model("mirror", "mirror"));
    expect(await instance.connect({ url: `${REMOTE}/`, token: "not-the-right-token-123" })).toBeUndefined();
    expect(instance.endpoint).toBeUndefined();
    expect(instance.problem).toMatchObject({
      kind: "bad-token",
      message: expect.stringContaining("refused the token"),
    });
    expect(JSON.parse(storage.getItem("pi-playground:proxy") ?? "{}")).toEqual({
      url: REMOTE,
      token: "not-the-right-token-123",
    });
    expect((await instance.route(model("mirror", "mirror"))).proxyUrl).toBe(IN_PAGE_PROXY_URL);

    net.state.remoteAllows = false;
    await instance.connect({ url: REMOTE, token: TOKEN });
    expect(instance.problem?.kind).toBe("refused-origin");
    expect(instance.problem?.message).toContain("ALLOWED_ORIGINS=http://127.0.0.1:8080");

    net.state.remote = false;
    await instance.reconnect();
    expect(instance.problem?.kind).toBe("unreachable");

    net.state.remote = true;
    net.state.remoteAllows = true;
    await instance.reconnect();
    expect(instance.endpoint).toEqual({ kind: "remote", url: REMOTE });
    expect(instance.problem).toBeUndefined();
  });

  it("forgets the proxy for the page's own server", async () => {
    const net = network();
    const { instance, storage } = connection(net);
    await instance.connect({ url: REMOTE, token: TOKEN });
    expect(instance.endpoint?.kind).toBe("remote");
    await instance.useOwnServer();
    expect(instance.endpoint).toEqual({ kind: "own", url: PAGE_URL });
    expect(storage.items.size).toBe(0);
  });

  it("tells the model list when requests go elsewhere, once per change", async () => {
    const net = network();
    const { instance } = connection(net);
    const listener = vi.fn();
    await instance.watch(listener);
    expect(listener).toHaveBeenCalledTimes(1);
    await instance.connect({ url: REMOTE, token: TOKEN });
    expect(listener).toHaveBeenCalledTimes(2);
    await instance.reconnect();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe("an offline model's request while a proxy is connected", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("goes to the proxy over the page's own fetch, even while the stream function has swapped it", async () => {
    const net = network();
    vi.stubGlobal("fetch", net.fetchImpl);
    const loadInPage = vi.fn(() => import("./in-page-proxy.ts"));
    const instance = new ProxyConnection({ pageUrl: PAGE_URL, page, loadInPage });
    const route = await instance.route(model("mirror", "mirror"));
    const transport = route.transport;
    if (!transport) throw new Error("an offline model gets a transport with a fallback");
    const response = await withFetch(transport, () => fetch(`${PAGE_URL}/api/models`));
    expect(response.status).toBe(200);
    expect(net.calls.at(-1)?.url).toBe(`${PAGE_URL}/api/models`);
    expect(loadInPage).not.toHaveBeenCalled();
  });
});

describe("a proxy that goes away mid-session", () => {
  it("answers an offline model's request in the page at once, then says the proxy is gone", async () => {
    const net = network();
    const { instance } = connection(net);
    const listener = vi.fn();
    await instance.watch(listener);
    const route = await instance.route(model("mirror", "mirror-instant"));
    net.state.own = false;

    const body = JSON.stringify({
      model: { provider: "mirror", id: "mirror-instant" },
      context: { messages: [{ role: "user", content: "still there?", timestamp: 1 }] },
    });
    const response = await route.transport?.(`${PAGE_URL}/api/stream`, { method: "POST", body });
    expect(response?.status).toBe(200);
    const deltas = (await response?.text())
      ?.split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string });
    expect(deltas?.map((event) => event.delta ?? "").join("")).toContain("> still there?");
    expect(deltas?.at(-1)?.type).toBe("done");

    await vi.waitFor(() => expect(instance.endpoint).toBeUndefined());
    expect(instance.problem).toMatchObject({ kind: "lost" });
    expect(instance.problem?.message).toMatch(
      /^This page's server stopped answering at .*Mirror models run in this page/,
    );
    expect(listener).toHaveBeenCalledTimes(2);
    expect((await instance.route(model("mirror", "mirror"))).proxyUrl).toBe(IN_PAGE_PROXY_URL);
  });

  it("looks again after a network failure of a real model's reply, and after a refused token", async () => {
    const net = network();
    const { instance } = connection(net);
    const route = await instance.route(model("openai", "gpt"));
    net.state.ownToken = "own-2";
    route.settled(
      failed("Proxy error: Invalid proxy token: it changes every time the server starts; reload the page."),
    );
    await vi.waitFor(async () =>
      expect((await instance.route(model("openai", "gpt"))).authToken).toBe("own-2"),
    );
    expect(instance.endpoint?.kind).toBe("own");

    net.state.own = false;
    route.settled(failed("Failed to fetch"));
    await vi.waitFor(() => expect(instance.endpoint).toBeUndefined());
    expect(instance.problem?.kind).toBe("lost");
  });

  it("leaves the connection alone for a provider's own error", async () => {
    const net = network();
    const { instance } = connection(net);
    const route = await instance.route(model("openai", "gpt"));
    const before = net.calls.length;
    route.settled(failed("Provider returned 401: Incorrect API key"));
    await Promise.resolve();
    expect(net.calls.length).toBe(before);
  });
});
