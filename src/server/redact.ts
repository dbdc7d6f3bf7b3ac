import type { ServerEnv } from "./model-registry.ts";

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;
const MIN_SECRET_LENGTH = 8;

/**
 * Text that leaves the server (error events, warnings) passes through here: the values of secret-looking
 * environment variables are replaced, and credentials embedded in URLs (https://user:key@host) removed.
 * Providers sometimes echo what they were sent; the page must never see a key because of it.
 */
export function createRedactor(env: ServerEnv): (text: string) => string {
  const secrets = Object.entries(env)
    .filter(
      ([name, value]) =>
        SECRET_NAME.test(name) && typeof value === "string" && value.length >= MIN_SECRET_LENGTH,
    )
    .map(([, value]) => value as string)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1[redacted]@");
    for (const secret of secrets) result = result.split(secret).join("[redacted]");
    return result;
  };
}

/** A URL as it may be shown: without user name and password. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^/\s@]+@/, "//");
  }
}
