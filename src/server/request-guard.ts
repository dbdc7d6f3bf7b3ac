import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "../shared/http-error.ts";

/**
 * Who may drive the proxy. A page from another origin must not be able to spend the server's keys, so:
 * the Host header must name this server (defeats DNS rebinding, where a foreign name resolves to
 * 127.0.0.1), a present Origin must be this server or one the operator listed (ALLOWED_ORIGINS), and
 * browsers' Sec-Fetch-Site must not say cross-site unless the origin is listed. `/api/stream` additionally
 * needs the token, which only same-origin pages can read; a listed origin's page needs it on every route,
 * and gets it from the person who started the proxy, never from the proxy.
 */
export interface GuardOptions {
  /** Host names (without port) this server answers to, e.g. "127.0.0.1", "localhost"; the port must be ours. */
  hostnames: readonly string[];
  /**
   * Names a reverse proxy in front of this server answers to (ALLOWED_HOSTS). The browser sees the proxy's
   * port, not ours, so any port is accepted for these: the operator vouched for the name.
   */
  proxiedHostnames?: readonly string[];
  /** Origins of pages served elsewhere that may use this proxy (ALLOWED_ORIGINS), as `parseAllowedOrigins` gives them. */
  allowedOrigins?: readonly string[];
}

export const LOOPBACK_HOSTNAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** A request the guard let through: from this server's own pages, or from a listed origin's page. */
export type Access = { ok: true; crossOrigin: string | undefined } | { ok: false; error: HttpError };

export type OriginGuard = (req: IncomingMessage) => Access;

/** The Host, Origin and Sec-Fetch-Site checks, with the allowed names prepared once rather than per request. */
export function createOriginGuard(options: GuardOptions): OriginGuard {
  const lower = (names: readonly string[] = []) => new Set(names.map((name) => name.toLowerCase()));
  const own = lower(options.hostnames);
  const proxied = lower(options.proxiedHostnames);
  const allowedOrigins = new Set(options.allowedOrigins);
  const matches = (host: string, port: number | undefined) => {
    const { name, port: hostPort } = splitHost(host);
    if (proxied.has(name)) return true;
    if (!own.has(name)) return false;
    return port === undefined || (hostPort ?? "80") === String(port);
  };
  const refuse = (message: string): Access => ({ ok: false, error: new HttpError(403, message) });

  return (req) => {
    const port = req.socket.localPort;
    const host = req.headers.host?.toLowerCase();
    if (!host || !matches(host, port)) {
      return refuse(`Refused: Host "${req.headers.host ?? ""}" is not this playground server.`);
    }
    const origin = req.headers.origin;
    let crossOrigin: string | undefined;
    if (origin !== undefined) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      const web = parsed !== undefined && (parsed.protocol === "http:" || parsed.protocol === "https:");
      const sameOrigin = web && parsed !== undefined && matches(parsed.host.toLowerCase(), port);
      if (!sameOrigin) {
        // Compared as the browser serializes it: an exact match, never a pattern.
        if (!allowedOrigins.has(origin))
          return refuse(`Refused: requests from origin "${origin}" may not use this proxy.`);
        crossOrigin = origin;
      }
    }
    const fetchSite = req.headers["sec-fetch-site"];
    if (crossOrigin === undefined && (fetchSite === "cross-site" || fetchSite === "same-site")) {
      return refuse("Refused: cross-site requests may not use this proxy.");
    }
    return { ok: true, crossOrigin };
  };
}

/**
 * ALLOWED_ORIGINS (comma-separated) as the browser sends them in `Origin`: scheme, host and port, nothing
 * else. A wildcard, a path or anything that is not an http(s) origin is refused at start with a sentence
 * saying why, rather than quietly allowing more (or less) than the operator meant.
 */
export function parseAllowedOrigins(value: string | undefined): string[] {
  const origins: string[] = [];
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    if (entry.includes("*")) {
      throw new Error(
        `ALLOWED_ORIGINS: "${entry}" is a wildcard; name each origin, e.g. https://me.github.io.`,
      );
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new Error(
        `ALLOWED_ORIGINS: "${entry}" is not an origin such as https://me.github.io or http://127.0.0.1:8080.`,
      );
    }
    if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
      throw new Error(
        `ALLOWED_ORIGINS: "${entry}" has more than an origin; give scheme, host and port only (${url.origin}).`,
      );
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
}

function splitHost(host: string): { name: string; port: string | undefined } {
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    const name = host.slice(0, end + 1);
    const rest = host.slice(end + 1);
    return { name, port: rest.startsWith(":") ? rest.slice(1) : undefined };
  }
  const colon = host.lastIndexOf(":");
  return colon === -1
    ? { name: host, port: undefined }
    : { name: host.slice(0, colon), port: host.slice(colon + 1) };
}

/** Where a page gets the token, for the sentence a missing or wrong one gets. */
export type TokenSource = "session" | "operator";

export function checkToken(
  req: IncomingMessage,
  token: string,
  source: TokenSource = "session",
): HttpError | undefined {
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const challenge = { "WWW-Authenticate": "Bearer" };
  if (!match?.[1]) {
    const where =
      source === "session"
        ? "send the token from /api/session as a Bearer token."
        : "pages on other origins must send the token this proxy printed when it started (or its PROXY_TOKEN).";
    return new HttpError(401, `Missing proxy token: ${where}`, challenge);
  }
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    const fix =
      source === "session"
        ? "it changes every time the server starts; reload the page."
        : "use the token this proxy printed when it started (or its PROXY_TOKEN); a restarted proxy prints a new one unless PROXY_TOKEN is set.";
    return new HttpError(401, `Invalid proxy token: ${fix}`, challenge);
  }
  return undefined;
}
