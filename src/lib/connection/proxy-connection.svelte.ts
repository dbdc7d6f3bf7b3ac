import type { Api, AssistantMessage, Model } from "@earendil-works/pi-ai";
import type { ApiErrorBody, ModelsResponse, PayloadResponse } from "../../shared/api-types.ts";
import { MIRROR_PROVIDER_ID } from "../../shared/mirror/mirror-id.ts";
import {
  previewBody,
  type PreviewRequest,
  type StreamRoute,
  type StreamRouter,
} from "../agent/stream-route.ts";
import type { InPageProxy } from "./in-page-proxy.ts";
import { lostProblem, probeOwnServer, type ConnectionProblem, type ProbeResult } from "./probe.ts";
import {
  readProxySettings,
  writeProxySettings,
  type PageLocation,
  type ProxySettings,
} from "./proxy-settings.ts";
import { apiUrl, payloadPath } from "../../shared/api-routes.ts";

type RemoteModule = typeof import("./remote-probe.ts");

/**
 * The address the page's own requests to the in-page proxy carry. `.invalid` never resolves (RFC 2606),
 * so even a request that missed the in-page transport could not reach anyone.
 */
export const IN_PAGE_PROXY_URL = "http://in-page.invalid";

/** The proxy requests go to: the page's own server, or one the person connected to. */
export interface Endpoint {
  kind: "own" | "remote";
  url: string;
}

export interface ConnectionOptions {
  /** The page's address without a trailing slash (its directory: the app may live under a path). */
  pageUrl: string;
  page: PageLocation;
  storage?: Storage | undefined;
  fetch?: typeof fetch;
  loadInPage?: () => Promise<{ createInPageProxy: typeof import("./in-page-proxy.ts").createInPageProxy }>;
  loadRemote?: () => Promise<RemoteModule>;
}

/** Calls whose proxy is remembered, so their payloads are asked of it; the oldest are forgotten first. */
const SERVED_CALLS_KEPT = 500;

/** Where a call went: a proxy and the token it took then, or the page itself. */
type Served = { endpoint: Endpoint; token: string } | { endpoint: undefined };

/** Texts of failed replies that mean the proxy itself went away, as browsers and `streamProxy` word them. */
const PROXY_GONE =
  /Failed to fetch|NetworkError|Load failed|network error|Connection closed by proxy server/i;

/**
 * Which proxy the page talks to, and what to do without one. At start it looks for a proxy at the page's
 * own address, or the one the person connected to last time; without either, the offline models run in
 * the page (loaded only then). A reply that fails because the proxy went away or refused the token makes
 * it look again, and say what it found where the person looks: beside the model picker.
 */
export class ProxyConnection implements StreamRouter {
  readonly #options: ConnectionOptions;
  readonly #fetch: typeof fetch;
  #endpoint = $state.raw<Endpoint | undefined>(undefined);
  #problem = $state.raw<ConnectionProblem | undefined>(undefined);
  #saved = $state.raw<ProxySettings | undefined>(undefined);
  #checking = $state(true);
  #token = "";
  #inPage: Promise<InPageProxy> | undefined;
  #ready: Promise<void>;
  #started = false;
  #checkId = 0;
  #rechecking: Promise<void> | undefined;
  readonly #listeners: (() => unknown)[] = [];
  // Not state: nothing renders it; it only routes payload requests.
  readonly #served = new Map<string, Served>();

  constructor(options: ConnectionOptions) {
    this.#options = options;
    // Looked up at call time, so that the page's fetch is the one used even if it is replaced later.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#saved = readProxySettings(options.storage);
    this.#ready = this.#check().then(() => {
      this.#started = true;
    });
  }

  /** The connection of this page, at `pageUrl` (the directory it is served from, without a trailing slash). */
  static forPage(pageUrl: string): ProxyConnection {
    let storage: Storage | undefined;
    try {
      storage = globalThis.localStorage;
    } catch {
      // Storage refused (some privacy modes): the connection works, it is just not remembered.
      storage = undefined;
    }
    const { protocol, origin } = globalThis.location;
    return new ProxyConnection({ pageUrl, page: { protocol, origin }, storage });
  }

  /**
   * A connection that never uses the network (an exported HTML file's viewer): no proxy is looked for,
   * nothing is remembered, and the offline models answer in the page.
   */
  static offline(pageUrl: string): ProxyConnection {
    const { protocol, origin } = globalThis.location;
    return new ProxyConnection({
      pageUrl,
      page: { protocol, origin },
      storage: undefined,
      fetch: () => Promise.reject(new Error("This page works without the network.")),
    });
  }

  /** Where requests go now; undefined while none is in use (the offline models answer in the page). */
  get endpoint(): Endpoint | undefined {
    return this.#endpoint;
  }
  /** Why no proxy is in use, or what went wrong with the one that was. */
  get problem(): ConnectionProblem | undefined {
    return this.#problem;
  }
  /** The proxy the person connected to, remembered across reloads. */
  get saved(): ProxySettings | undefined {
    return this.#saved;
  }
  get checking(): boolean {
    return this.#checking;
  }
  get pageOrigin(): string {
    return this.#options.page.origin;
  }

  /**
   * The proxy in use and the token it took, for the other things it serves the page (live pi sessions);
   * undefined while the offline models answer in the page.
   */
  get access(): { url: string; token: string } | undefined {
    const endpoint = this.#endpoint;
    return endpoint ? { url: endpoint.url, token: this.#token } : undefined;
  }

  /** Run `listener` once the first look is done, and again whenever requests start going elsewhere. */
  watch(listener: () => unknown): Promise<void> {
    this.#listeners.push(listener);
    return this.#ready.then(async () => {
      await listener();
    });
  }

  /** Use the proxy at `url` from now on (and after reloads). Returns what is wrong with the input, if anything. */
  async connect(input: {
    url: string;
    token: string;
  }): Promise<{ field: "url" | "token"; error: string } | undefined> {
    let remote: RemoteModule;
    try {
      remote = await this.#remote();
    } catch (error) {
      return { field: "url", error: `The proxy settings could not be loaded: ${(error as Error).message}` };
    }
    const check = remote.checkProxySettings(input, this.#options.page);
    if (!check.ok) return { field: check.field, error: check.error };
    this.#saved = check.settings;
    writeProxySettings(this.#options.storage, check.settings);
    await this.#check();
    return undefined;
  }

  /** Forget the remembered proxy: the page's own server if it has one, else the offline models in the page. */
  async useOwnServer(): Promise<void> {
    this.#saved = undefined;
    writeProxySettings(this.#options.storage, undefined);
    await this.#check();
  }

  /** Look again, e.g. once a proxy that went away is back. */
  async reconnect(): Promise<void> {
    await this.#check();
  }

  async route(model: Model<Api>): Promise<StreamRoute> {
    await this.#ready;
    const endpoint = this.#endpoint;
    if (!endpoint) {
      const inPage = await this.#inPageProxy();
      return {
        proxyUrl: IN_PAGE_PROXY_URL,
        authToken: "",
        transport: inPage.fetch,
        settled: () => undefined,
        sent: (callId) => this.#remember(callId, { endpoint: undefined }),
      };
    }
    const token = this.#token;
    return {
      proxyUrl: endpoint.url,
      authToken: token,
      // The offline models keep answering when the proxy is gone: in the page, for this very request.
      transport: model.provider === MIRROR_PROVIDER_ID ? this.#withInPageFallback(endpoint) : undefined,
      settled: (message) => this.#settled(endpoint, message),
      sent: (callId) => this.#remember(callId, { endpoint, token }),
    };
  }

  /**
   * The provider payload of a call sent through this connection, from the proxy that answered it (or the
   * page, for the offline models answered here). Throws with the proxy's sentence when it has none.
   */
  async payload(callId: string): Promise<PayloadResponse> {
    await this.#ready;
    const served = this.#served.get(callId) ?? this.#current();
    const path = payloadPath(callId);
    if (!served.endpoint)
      return readPayload(await (await this.#inPageProxy()).fetch(`${IN_PAGE_PROXY_URL}${path}`));
    try {
      return await readPayload(
        await this.#fetch(`${served.endpoint.url}${path}`, { headers: authorized(served.token) }),
      );
    } catch (error) {
      // An offline model's request may have been answered in the page while the proxy could not be reached.
      const inPage = this.#inPage ? await this.#inPage.catch(() => undefined) : undefined;
      const answered = inPage ? await inPage.fetch(`${IN_PAGE_PROXY_URL}${path}`) : undefined;
      if (answered?.ok) return readPayload(answered);
      throw error;
    }
  }

  /** `POST /api/preview` of the proxy in use (or the page): the payload the provider would receive now. */
  async preview(request: PreviewRequest): Promise<PayloadResponse> {
    await this.#ready;
    const body = previewBody(request);
    const init = (token: string): RequestInit => ({
      method: "POST",
      headers: { ...authorized(token), "Content-Type": "application/json" },
      body,
    });
    const endpoint = this.#endpoint;
    const inPage = async () =>
      (await this.#inPageProxy()).fetch(apiUrl(IN_PAGE_PROXY_URL, "preview"), init(""));
    if (!endpoint) return readPayload(await inPage());
    let response: Response;
    try {
      response = await this.#fetch(apiUrl(endpoint.url, "preview"), init(this.#token));
    } catch (error) {
      // As for their replies: the offline models are previewed in the page when the proxy is gone.
      if (request.model.provider !== MIRROR_PROVIDER_ID) throw error;
      void this.#recheck(endpoint);
      response = await inPage();
    }
    return readPayload(response);
  }

  #current(): Served {
    const endpoint = this.#endpoint;
    return endpoint ? { endpoint, token: this.#token } : { endpoint: undefined };
  }

  #remember(callId: string, served: Served): void {
    this.#served.set(callId, served);
    for (const oldest of this.#served.keys()) {
      if (this.#served.size <= SERVED_CALLS_KEPT) break;
      this.#served.delete(oldest);
    }
  }

  /** `GET /api/models` of the proxy in use, or of the in-page proxy. */
  async listModels(): Promise<ModelsResponse> {
    await this.#ready;
    const endpoint = this.#endpoint;
    if (!endpoint) {
      const inPage = await this.#inPageProxy();
      return readModels(await inPage.fetch(apiUrl(IN_PAGE_PROXY_URL, "models")));
    }
    const headers: Record<string, string> = { Accept: "application/json" };
    if (endpoint.kind === "remote") headers.Authorization = `Bearer ${this.#token}`;
    try {
      return readModels(await this.#fetch(apiUrl(endpoint.url, "models"), { headers }));
    } catch (error) {
      void this.#recheck(endpoint);
      throw error;
    }
  }

  async #check(): Promise<void> {
    const id = ++this.#checkId;
    this.#checking = true;
    const saved = this.#saved;
    const result = saved
      ? await this.#probeRemote(saved)
      : await probeOwnServer(this.#options.pageUrl, this.#fetch);
    // A newer look (the person connected elsewhere meanwhile) decides instead.
    if (id !== this.#checkId) return;
    this.#checking = false;
    if (result.ok) {
      this.#token = result.token;
      this.#use({ kind: saved ? "remote" : "own", url: saved?.url ?? this.#options.pageUrl }, undefined);
    } else {
      this.#use(undefined, result.problem);
    }
  }

  #use(endpoint: Endpoint | undefined, problem: ConnectionProblem | undefined): void {
    const moved = endpoint?.kind !== this.#endpoint?.kind || endpoint?.url !== this.#endpoint?.url;
    this.#endpoint = endpoint;
    this.#problem = problem;
    if (moved && this.#started) for (const listener of this.#listeners) void listener();
  }

  /** A reply failed: if the proxy went away or refused the token, look again (once at a time). */
  #settled(endpoint: Endpoint, message: AssistantMessage): void {
    if (message.stopReason !== "error") return;
    const text = message.errorMessage ?? "";
    if (PROXY_GONE.test(text) || /proxy token/i.test(text)) void this.#recheck(endpoint);
  }

  #recheck(endpoint: Endpoint): Promise<void> {
    this.#rechecking ??= this.#probe(endpoint)
      .then((result) => {
        if (this.#endpoint !== endpoint) return;
        if (result.ok) {
          // Still there; a restarted server of this page has a new token, which the next request uses.
          this.#token = result.token;
          return;
        }
        const where = endpoint.kind === "own" ? "This page's server" : `The proxy at ${endpoint.url}`;
        this.#use(undefined, lostProblem(where, result.problem, Date.now()));
      })
      .finally(() => {
        this.#rechecking = undefined;
      });
    return this.#rechecking;
  }

  #probe(endpoint: Endpoint): Promise<ProbeResult> {
    const saved = this.#saved;
    return endpoint.kind === "remote" && saved
      ? this.#probeRemote(saved)
      : probeOwnServer(this.#options.pageUrl, this.#fetch);
  }

  /** Remembered settings are checked again before they are used: storage is not trusted as it is. */
  async #probeRemote(saved: ProxySettings): Promise<ProbeResult> {
    let remote: RemoteModule;
    try {
      remote = await this.#remote();
    } catch (error) {
      return {
        ok: false,
        problem: {
          kind: "unreachable",
          message: `The proxy settings could not be loaded: ${(error as Error).message}`,
        },
      };
    }
    const check = remote.checkProxySettings(saved, this.#options.page);
    if (!check.ok)
      return {
        ok: false,
        problem: { kind: "refused", message: `The remembered proxy settings are not usable: ${check.error}` },
      };
    return remote.probeRemote(check.settings, this.#options.page.origin, this.#fetch);
  }

  #remote(): Promise<RemoteModule> {
    return (this.#options.loadRemote ?? (() => import("./remote-probe.ts")))();
  }

  /** The network first; if the proxy cannot be reached at all, the in-page proxy answers instead. */
  #withInPageFallback(endpoint: Endpoint): typeof fetch {
    // Taken now, before the stream function swaps the global fetch for this very transport.
    const network = this.#options.fetch ?? globalThis.fetch.bind(globalThis);
    return async (input, init) => {
      try {
        return await network(input, init);
      } catch (error) {
        if (init?.signal?.aborted) throw error;
        void this.#recheck(endpoint);
        const inPage = await this.#inPageProxy();
        return inPage.fetch(input, init);
      }
    };
  }

  #inPageProxy(): Promise<InPageProxy> {
    const load = this.#options.loadInPage ?? (() => import("./in-page-proxy.ts"));
    this.#inPage ??= load().then(({ createInPageProxy }) => createInPageProxy());
    // A chunk that failed to load (the page's server is gone too) is tried again next time.
    this.#inPage.catch(() => (this.#inPage = undefined));
    return this.#inPage;
  }
}

function authorized(token: string): Record<string, string> {
  return { Accept: "application/json", Authorization: `Bearer ${token}` };
}

/** A payload route's answer, or an Error carrying the sentence the proxy gave for refusing it. */
async function readPayload(response: Response): Promise<PayloadResponse> {
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
    throw new Error(body.error ?? `the proxy answered ${response.status} ${response.statusText}`.trim());
  }
  return (await response.json()) as PayloadResponse;
}

async function readModels(response: Response): Promise<ModelsResponse> {
  if (!response.ok) throw new Error(`the proxy answered ${response.status} ${response.statusText}`.trim());
  return (await response.json()) as ModelsResponse;
}
