import type { PageLocation, ProxySettings } from "./proxy-settings.ts";

/** What the person typed into the proxy settings, checked: the settings, or the field to fix and why. */
export type SettingsCheck =
  { ok: true; settings: ProxySettings } | { ok: false; field: "url" | "token"; error: string };

/** Prefixes of provider API keys people are likely to paste by mistake. */
const PROVIDER_KEY = /^(sk-|sk_|sk-ant-|sk-or-|AIza|gsk_|xai-|hf_|r8_|pplx-|fw_|csk-)/;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function checkProxySettings(input: { url: string; token: string }, page: PageLocation): SettingsCheck {
  const rawUrl = input.url.trim();
  if (rawUrl === "")
    return { ok: false, field: "url", error: "Enter the proxy's address, e.g. http://127.0.0.1:4180." };
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return {
      ok: false,
      field: "url",
      error: `“${rawUrl}” is not an address: write it in full, e.g. http://127.0.0.1:4180.`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, field: "url", error: "The proxy's address starts with http:// or https://." };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      field: "url",
      error: "Leave credentials out of the address: the token has its own field.",
    };
  }
  if (url.search || url.hash) {
    return {
      ok: false,
      field: "url",
      error: "The address takes no query or fragment: scheme, host, port and an optional path.",
    };
  }
  if (page.protocol === "https:" && url.protocol === "http:" && !LOOPBACK.has(url.hostname)) {
    return {
      ok: false,
      field: "url",
      error: `This page is served over HTTPS, so the browser will not let it reach a plain-HTTP proxy at ${url.host}. Serve the proxy over HTTPS, or run it on this machine (http://127.0.0.1).`,
    };
  }
  if (url.origin === page.origin) {
    return {
      ok: false,
      field: "url",
      error:
        "That is this page's own address: a proxy there is found without settings. Use “This page's server”.",
    };
  }
  const token = input.token.trim();
  if (token === "") {
    return {
      ok: false,
      field: "token",
      error: "Enter the token the proxy printed when it started (or its PROXY_TOKEN).",
    };
  }
  if (/\s/.test(token)) return { ok: false, field: "token", error: "A proxy token has no spaces." };
  if (PROVIDER_KEY.test(token)) {
    return {
      ok: false,
      field: "token",
      error:
        "That looks like a provider API key. Keys stay in the proxy's environment and never go into the page: paste the proxy's own token.",
    };
  }
  const path = url.pathname.replace(/\/+$/, "");
  return { ok: true, settings: { url: `${url.origin}${path}`, token } };
}
