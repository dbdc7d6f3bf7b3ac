/**
 * The proxy a page served elsewhere talks to: its address and its token, as the page remembers them.
 * Only the proxy's own token is kept here; provider keys stay in the proxy's environment (and are refused
 * when pasted, see settings-check.ts).
 */
export interface ProxySettings {
  /** Scheme, host, port and an optional path prefix, without a trailing slash. */
  url: string;
  token: string;
}

/** Where the page is served from: decides which proxy addresses the browser will let it reach. */
export interface PageLocation {
  protocol: string;
  origin: string;
}

const STORAGE_KEY = "pi-playground:proxy";

/**
 * The remembered proxy, or undefined when there is none or what is stored is not of the right shape.
 * It was checked when it was saved; it is checked again before the first request (settings-check.ts).
 */
export function readProxySettings(storage: Storage | undefined): ProxySettings | undefined {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as { url?: unknown; token?: unknown };
    if (typeof parsed.url !== "string" || !/^https?:\/\//.test(parsed.url)) return undefined;
    if (typeof parsed.token !== "string" || parsed.token === "") return undefined;
    return { url: parsed.url, token: parsed.token };
  } catch {
    return undefined;
  }
}

export function writeProxySettings(storage: Storage | undefined, settings: ProxySettings | undefined): void {
  try {
    if (settings) storage?.setItem(STORAGE_KEY, JSON.stringify(settings));
    else storage?.removeItem(STORAGE_KEY);
  } catch {
    // Without storage the settings last as long as the page: the connection itself still works.
  }
}
