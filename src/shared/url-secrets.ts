/**
 * The rules that tell the credentials in a URL from its other parts. One rule set for the proxy (which
 * scrubs what it sends the page and shows addresses without their keys) and the page (which redacts an
 * export before it leaves): both import it from here.
 */

export const REDACTED = "[redacted]";

/** Query parameters whose values are credentials whatever they look like. */
export const SECRET_PARAM = /key|token|secret|sig|auth|pass|code|credential/i;

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
export function looksLikeToken(value: string): boolean {
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

/**
 * Where, inside `url` (text starting with `scheme://`), the parts `urlSecrets` calls credentials are:
 * user information, token-like path segments, and values of credential-named or token-like query
 * parameters, as [start, end) offsets into `url`. Read from the text itself rather than a parsed URL,
 * so that the offsets are those of the text as written.
 */
export function urlSecretSpans(url: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const scheme = url.indexOf("://");
  if (scheme < 0) return spans;
  const authorityStart = scheme + 3;
  const authorityEnd = firstOf(url, "/?#", authorityStart);
  const at = url.lastIndexOf("@", authorityEnd - 1);
  if (at >= authorityStart) spans.push([authorityStart, at]);
  const pathEnd = firstOf(url, "?#", authorityEnd);
  let segmentStart = authorityEnd;
  while (segmentStart < pathEnd) {
    let segmentEnd = url.indexOf("/", segmentStart + 1);
    if (segmentEnd < 0 || segmentEnd > pathEnd) segmentEnd = pathEnd;
    const from = url[segmentStart] === "/" ? segmentStart + 1 : segmentStart;
    if (from < segmentEnd && looksLikeToken(safeDecode(url.slice(from, segmentEnd))))
      spans.push([from, segmentEnd]);
    segmentStart = segmentEnd;
  }
  if (url[pathEnd] === "?") {
    const queryEnd = firstOf(url, "#", pathEnd);
    let pairStart = pathEnd + 1;
    while (pairStart < queryEnd) {
      let pairEnd = url.indexOf("&", pairStart);
      if (pairEnd < 0 || pairEnd > queryEnd) pairEnd = queryEnd;
      const equals = url.indexOf("=", pairStart);
      if (equals >= 0 && equals < pairEnd - 1) {
        const name = safeDecode(url.slice(pairStart, equals));
        const value = safeDecode(url.slice(equals + 1, pairEnd).replace(/\+/g, " "));
        if (SECRET_PARAM.test(name) || looksLikeToken(value)) spans.push([equals + 1, pairEnd]);
      }
      pairStart = pairEnd + 1;
    }
  }
  return spans;
}

function firstOf(text: string, characters: string, from: number): number {
  for (let index = from; index < text.length; index++)
    if (characters.includes(text[index] ?? "")) return index;
  return text.length;
}
