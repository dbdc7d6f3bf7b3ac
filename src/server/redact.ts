import { REDACTED, urlSecrets } from "../shared/url-secrets.ts";
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
