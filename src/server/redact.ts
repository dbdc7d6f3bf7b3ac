import type { ServerEnv } from "./server-env.ts";

/**
 * Variables that hold a credential the proxy itself sends upstream (pi-ai reads `<PROVIDER>_API_KEY`,
 * `HF_TOKEN`, `AWS_SECRET_ACCESS_KEY`…, the local server `LOCAL_OPENAI_API_KEY`). Their values are scrubbed
 * whatever their length: a three-character key is still a key.
 */
const CREDENTIAL_NAME = /(?:_API_KEY|_TOKEN|_SECRET|_SECRET_ACCESS_KEY|_ACCESS_KEY|_PASSWORD)$/i;
/** Other secret-looking variables, scrubbed only from 8 characters on: `KEYTIMEOUT=1` must not blank out every "1". */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;
const MIN_LOOSE_SECRET_LENGTH = 8;
/** Variables holding an address the server talks to: their credentials and token-like parts are secrets too. */
const URL_NAME = /(?:_URL|_ENDPOINT)$/i;
/** URL parts shorter than this are shown as `[redacted]` but not scrubbed from other text, where they are noise. */
const MIN_URL_SECRET_LENGTH = 6;
/** Query parameters whose values are credentials whatever they look like. */
const SECRET_PARAM = /key|token|secret|sig|auth|pass|code|credential/i;

export const REDACTED = "[redacted]";

export interface Redactor {
  /**
   * The secrets, as written and as they appear inside a JSON string, longest first. Empty when the server
   * has none configured, which makes every check below a no-op.
   */
  readonly secrets: readonly string[];
  /** Text the server wrote itself (error messages, warnings): secrets and credentials in URLs removed. */
  text(text: string): string;
  /** Serialized output (a JSON body, an SSE frame): every secret replaced; the same string when none occurs. */
  serialized(text: string): string;
}

/**
 * Everything the proxy sends back passes through here: the values of credential variables, token-like parts
 * of configured URLs, and credentials embedded in URLs (https://user:key@host) are replaced. Providers echo
 * what they were sent, in error texts and sometimes in the reply itself; the page must never see a key
 * because of it.
 */
export function createRedactor(env: ServerEnv): Redactor {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    const trimmed = value?.trim();
    if (!value || !trimmed) continue;
    if (CREDENTIAL_NAME.test(name)) {
      found.add(value);
      found.add(trimmed);
    } else if (SECRET_NAME.test(name) && trimmed.length >= MIN_LOOSE_SECRET_LENGTH) {
      found.add(trimmed);
    } else if (URL_NAME.test(name)) {
      for (const part of urlSecrets(trimmed)) if (part.length >= MIN_URL_SECRET_LENGTH) found.add(part);
    }
  }
  // A secret with quotes, backslashes or control characters appears escaped inside JSON.
  for (const secret of [...found]) found.add(JSON.stringify(secret).slice(1, -1));
  const secrets = [...found].filter((secret) => secret !== "").sort((a, b) => b.length - a.length);
  // One pass with every secret at once, longest first, so that a short secret is never found again
  // inside the marker that replaced a longer one.
  const pattern = secretPattern(secrets);

  const serialized = (text: string): string => {
    if (!pattern) return text;
    for (const secret of secrets) {
      if (text.includes(secret)) return text.replace(pattern, REDACTED);
    }
    return text;
  };
  return {
    secrets,
    serialized,
    text: (text) => serialized(text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, `$1${REDACTED}@`)),
  };
}

/**
 * One global pattern matching any of `secrets` (sorted longest first, so that the longest secret starting at a
 * place wins), or undefined when there are none.
 */
export function secretPattern(secrets: readonly string[]): RegExp | undefined {
  return secrets.length > 0 ? new RegExp(secrets.map(escapeRegExp).join("|"), "g") : undefined;
}

/**
 * A URL as it may be shown: without user name and password, with token-like path segments and query values
 * replaced (`http://127.0.0.1:8080/v1/[redacted]`). Some gateways put an account key in the path.
 */
export function displayUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/[^/\s@]+@/, "//");
  }
  const path = parsed.pathname
    .split("/")
    .map((segment) => (looksLikeToken(safeDecode(segment)) ? REDACTED : segment))
    .join("/")
    .replace(/\/$/, "");
  const query = [...parsed.searchParams]
    .map(([name, value]) => `${name}=${SECRET_PARAM.test(name) || looksLikeToken(value) ? REDACTED : value}`)
    .join("&");
  return `${parsed.protocol}//${parsed.host}${path}${query ? `?${query}` : ""}`;
}

/** The parts of a URL that may be credentials: user, password, token-like path segments and query values. */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const parts = [parsed.username, parsed.password, safeDecode(parsed.username), safeDecode(parsed.password)];
  for (const segment of parsed.pathname.split("/")) {
    const decoded = safeDecode(segment);
    if (looksLikeToken(decoded)) parts.push(segment, decoded);
  }
  for (const [name, value] of parsed.searchParams) {
    if (SECRET_PARAM.test(name) || looksLikeToken(value)) parts.push(value, encodeURIComponent(value));
  }
  return [...new Set(parts.filter((part) => part !== ""))];
}

/**
 * A path segment or query value that could be a key: mixes letters and digits over at least 8 characters
 * (`tok3nSecret`, a hex id), or is long. Words and versions (`v1`, `openai`, `chat-completions`) are not.
 */
function looksLikeToken(value: string): boolean {
  if (value.length >= 24) return true;
  return value.length >= 8 && /[a-z]/i.test(value) && /\d/.test(value);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
