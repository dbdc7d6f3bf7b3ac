import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "../shared/http-error.ts";

/**
 * Who may drive the proxy. A page from another origin must not be able to spend the server's keys, so:
 * the Host header must name this server (defeats DNS rebinding, where a foreign name resolves to
 * 127.0.0.1), a present Origin must be this server, and browsers' Sec-Fetch-Site must not say
 * cross-site. `/api/stream` additionally needs the per-start token, which only same-origin pages can read.
 */
export interface GuardOptions {
  /** Host names (without port) this server answers to, e.g. "127.0.0.1", "localhost"; the port must be ours. */
  hostnames: readonly string[];
  /**
   * Names a reverse proxy in front of this server answers to (ALLOWED_HOSTS). The browser sees the proxy's
   * port, not ours, so any port is accepted for these: the operator vouched for the name.
   */
  proxiedHostnames?: readonly string[];
}

export const LOOPBACK_HOSTNAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

export type OriginGuard = (req: IncomingMessage) => HttpError | undefined;

/** The Host, Origin and Sec-Fetch-Site checks, with the allowed names prepared once rather than per request. */
export function createOriginGuard(options: GuardOptions): OriginGuard {
  const lower = (names: readonly string[] = []) => new Set(names.map((name) => name.toLowerCase()));
  const own = lower(options.hostnames);
  const proxied = lower(options.proxiedHostnames);
  const matches = (host: string, port: number | undefined) => {
    const { name, port: hostPort } = splitHost(host);
    if (proxied.has(name)) return true;
    if (!own.has(name)) return false;
    return port === undefined || (hostPort ?? "80") === String(port);
  };

  return (req) => {
    const port = req.socket.localPort;
    const host = req.headers.host?.toLowerCase();
    if (!host || !matches(host, port)) {
      return new HttpError(403, `Refused: Host "${req.headers.host ?? ""}" is not this playground server.`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      const sameOrigin =
        parsed !== undefined &&
        (parsed.protocol === "http:" || parsed.protocol === "https:") &&
        matches(parsed.host.toLowerCase(), port);
      if (!sameOrigin)
        return new HttpError(403, `Refused: requests from origin "${origin}" may not use this proxy.`);
    }
    const fetchSite = req.headers["sec-fetch-site"];
    if (fetchSite === "cross-site" || fetchSite === "same-site") {
      return new HttpError(403, "Refused: cross-site requests may not use this proxy.");
    }
    return undefined;
  };
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

export function checkToken(req: IncomingMessage, token: string): HttpError | undefined {
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) {
    return new HttpError(401, "Missing proxy token: send the token from /api/session as a Bearer token.", {
      "WWW-Authenticate": "Bearer",
    });
  }
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return new HttpError(
      401,
      "Invalid proxy token: it changes every time the server starts; reload the page.",
      {
        "WWW-Authenticate": "Bearer",
      },
    );
  }
  return undefined;
}
