import type { ServerResponse } from "node:http";

/**
 * Headers every response of the server carries, pages, assets and API alike: no other site may frame the
 * playground (a framed page could be tricked into sending or approving), browsers must not guess a type
 * other than the one declared, and no address leaks through the Referer header.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
};

/** Set the security headers on a response before anyone writes it; later `writeHead` calls keep them. */
export function applySecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!res.headersSent && !res.hasHeader(name)) res.setHeader(name, value);
  }
}
