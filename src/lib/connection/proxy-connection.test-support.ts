import type { Api, Model } from "@earendil-works/pi-ai";
import { vi } from "vitest";
import { ProxyConnection, type ConnectionOptions } from "./proxy-connection.svelte.ts";

/**
 * A ProxyConnection on a little network of stubbed servers: the page's own server and a remote proxy,
 * each up or down, each answering with its own token, and storage kept in memory.
 */

export const PAGE_URL = "http://127.0.0.1:8080/playground";
export const page = { protocol: "http:", origin: "http://127.0.0.1:8080" };
export const REMOTE = "http://127.0.0.1:4180";
export const TOKEN = "remote-token-0123456789abc";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

export function model(provider: string, id: string): Model<Api> {
  return {
    id,
    name: id,
    api: provider,
    provider,
    baseUrl: "",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 0,
    maxTokens: 0,
  };
}

export class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** What a proxy's payload routes answer: which proxy answered, and what it was asked. */
function payloadRoutes(url: string, init: RequestInit | undefined, who: string): Response | undefined {
  const call = /\/api\/calls\/([^/]+)\/payload$/.exec(url)?.[1];
  if (call === "unknown-call-123")
    return json(404, {
      error: "No payload is kept for call unknown-call-123: this proxy did not serve that call.",
    });
  if (call) return json(200, { payload: { kept: "all", bytes: 2, value: { who, call } } });
  if (url.endsWith("/api/preview") && init?.method === "POST")
    return json(200, {
      payload: { kept: "all", bytes: 2, value: { who, body: JSON.parse(String(init.body)) } },
    });
  return undefined;
}

/** A little network: which servers are up, and what they answer. */
export function network() {
  const state = { own: true, ownToken: "own-1", remote: true, remoteAllows: true };
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    calls.push({ url, init });
    if (url.startsWith(PAGE_URL)) {
      if (!state.own) throw new TypeError("Failed to fetch");
      if (url.endsWith("/api/session")) return json(200, { token: state.ownToken, maxBodyBytes: 1 });
      if (url.endsWith("/api/models"))
        return json(200, { models: [{ provider: "openai", id: "gpt" }], warnings: [] });
      if (new Headers(init?.headers).get("Authorization") !== `Bearer ${state.ownToken}`)
        return json(401, {
          error: "Invalid proxy token: it changes every time the server starts; reload the page.",
        });
      const answered = payloadRoutes(url, init, "own");
      if (answered) return answered;
    }
    if (url.startsWith(REMOTE)) {
      if (!state.remote) throw new TypeError("Failed to fetch");
      if (!state.remoteAllows) {
        if (init?.mode === "no-cors") return new Response(null);
        throw new TypeError("Failed to fetch");
      }
      const auth = new Headers(init?.headers).get("Authorization");
      if (auth !== `Bearer ${TOKEN}`)
        return json(401, { error: "Invalid proxy token: use the printed one." });
      // As npm run proxy answers: the token is taken, never handed back.
      if (url.endsWith("/api/session")) return json(200, { maxBodyBytes: 1 });
      if (url.endsWith("/api/models"))
        return json(200, { models: [{ provider: "local", id: "remote-model" }], warnings: [] });
      const answered = payloadRoutes(url, init, "remote");
      if (answered) return answered;
    }
    return new Response("Not found", { status: 404 });
  });
  return { state, calls, fetchImpl };
}

/** A connection over `net`, with storage in memory and the in-page models loaded only when asked for. */
export function connection(net: ReturnType<typeof network>, extra: Partial<ConnectionOptions> = {}) {
  const loadInPage = vi.fn(() => import("./in-page-proxy.ts"));
  const storage = new MemoryStorage();
  const instance = new ProxyConnection({
    pageUrl: PAGE_URL,
    page,
    storage: storage as unknown as Storage,
    fetch: net.fetchImpl,
    loadInPage,
    ...extra,
  });
  return { instance, loadInPage, storage };
}
