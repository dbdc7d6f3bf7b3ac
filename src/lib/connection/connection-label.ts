import type { Endpoint } from "./proxy-connection.svelte.ts";

/** The proxy button's text: where requests go, in a few words. */
export function connectionLabel(endpoint: Endpoint | undefined, checking: boolean): string {
  if (checking && !endpoint) return "Proxy: looking…";
  if (!endpoint) return "No proxy: Mirror runs in this page";
  if (endpoint.kind === "own") return "Proxy: this page's server";
  return `Proxy: ${new URL(endpoint.url).host}`;
}

/** A sentence for the settings: where requests go now. */
export function connectionSummary(endpoint: Endpoint | undefined): string {
  if (!endpoint) return "No proxy is in use: the offline Mirror models answer inside this page.";
  if (endpoint.kind === "own") return "Requests go to the proxy of this page's own server.";
  return `Requests go to the proxy at ${endpoint.url}.`;
}
