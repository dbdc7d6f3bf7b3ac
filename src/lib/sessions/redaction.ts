import { urlSecretSpans } from "../../shared/url-secrets.ts";

/**
 * Redaction before anything leaves the page: an export (the playground's JSONL and JSON, pi's session file,
 * LHAR) or a copied payload. Three levels:
 *
 * - `none`: the file as it is.
 * - `secrets`: API keys and tokens (by their providers' prefixes, JWTs, private key blocks, values of
 *   credential-named fields and `key=value` assignments), bearer headers, and the credentials in URLs,
 *   found by the same rules the proxy uses on the addresses it is given (src/shared/url-secrets.ts).
 * - `strict`: also e-mail addresses, home-folder paths (`/home/alice`, `/Users/alice`, `C:\Users\alice`)
 *   and long runs of digits (phone, card and account numbers).
 *
 * Only string values change, never keys, numbers or structure, so a redacted file is as valid JSON (or
 * JSONL) as the original: each line or document is parsed, its strings rewritten, and only what changed is
 * serialized again. A line where nothing was found stays byte for byte as it was, which keeps a pi session
 * file equal to pi's own wherever nothing was replaced. Because strings are read after JSON decoding, a key
 * written with escapes (`sk-\u0074est…`) is found like any other. A secret split across two string values
 * (two streamed deltas) is not: nothing reassembles them.
 *
 * Identifiers (`id`, `parentId`, `…Id`), types, roles, timestamps and providers' opaque signatures are left
 * alone: they hold no personal data, and changing them would break the file's tree.
 */
export type RedactionLevel = "none" | "secrets" | "strict";

export const REDACTION_LEVELS: readonly RedactionLevel[] = ["none", "secrets", "strict"];

/** What a replaced span was. */
export type RedactionKind =
  "key" | "token" | "credential" | "url" | "private-key" | "email" | "home" | "digits";

/** The text that replaces a span of `kind`. */
export function marker(kind: RedactionKind): string {
  return `[redacted:${kind}]`;
}

export interface Replacement {
  kind: RedactionKind;
  /** The text replaced, as it was. Shown in the preview only; it never leaves the page. */
  original: string;
}

/** One text found, and how many times. */
export interface Finding extends Replacement {
  count: number;
}

/** What redacting a file did: its new text, and what it replaced. */
export interface RedactedFile {
  text: string;
  /** How many spans were replaced, by kind. */
  counts: Partial<Record<RedactionKind, number>>;
  total: number;
  /** Each distinct text replaced, in order of first appearance (the first `MAX_LISTED`), for the preview. */
  listed: readonly Finding[];
}

/** The preview lists at most this many distinct findings; the counts are always complete. */
export const MAX_LISTED = 200;

type Span = [start: number, end: number, kind: RedactionKind];

/**
 * Keys by providers' documented prefixes. Every alternative starts with a literal, and none is preceded by
 * a letter or digit (`task-…` holds no `sk-` key), so the scan stays linear on any input.
 */
const KEY_PATTERN = new RegExp(
  [
    String.raw`sk-[A-Za-z0-9_-]{16,}`, // OpenAI, Anthropic (sk-ant-…), DeepSeek, OpenRouter (sk-or-…)
    String.raw`AIza[0-9A-Za-z_-]{30,}`, // Google
    String.raw`gh[pousr]_[A-Za-z0-9]{30,}`,
    String.raw`github_pat_[A-Za-z0-9_]{22,}`,
    String.raw`glpat-[A-Za-z0-9_-]{20,}`,
    String.raw`xox[abposr]-[A-Za-z0-9-]{10,}`, // Slack
    String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}`, // AWS access key ids
    String.raw`hf_[A-Za-z0-9]{30,}`, // Hugging Face
    String.raw`gsk_[A-Za-z0-9]{20,}`, // Groq
    String.raw`xai-[A-Za-z0-9]{20,}`,
    String.raw`[rs]k_(?:live|test)_[A-Za-z0-9]{16,}`, // Stripe
    String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, // JWT
  ]
    .map((alternative) => `(?<![A-Za-z0-9])${alternative}`)
    .join("|"),
  "g",
);

/** `Bearer <token>`: the token only, when it looks like one (a digit or punctuation, or long). */
const BEARER_PATTERN = /\bBearer\s+([A-Za-z0-9._~+/=-]{8,})/gi;

/** `api_key = …`, `"password": "…"`, `Authorization: …`: the value after a credential's name. */
const ASSIGNMENT_PATTERN =
  /(?<![A-Za-z0-9])(?:api[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|secret[_-]?key|client[_-]?secret|password|passwd|secret|token|authorization)["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token)\s+)?([^\s"',;&<>]{6,})/gi;

/** A URL with a scheme; trailing punctuation of the sentence around it is not part of it. */
const URL_PATTERN = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,15}:\/\/[^\s"'<>\\`]+/g;

const HOME_PATTERN = /\/(?:home|Users)\/[^/\s"'<>:\\]+|\b[A-Za-z]:\\\\?Users\\\\?[^\\\s"'<>:/]+/g;

/** Nine digits or more, perhaps grouped by single spaces or dashes; not part of a word, a decimal or a time. */
const DIGITS_PATTERN = /(?<![\w.-])\d(?:[ -]?\d){8,}(?![\w:])/g;

/** Fields whose whole value is a credential, whatever it looks like (headers, options, configs). */
const CREDENTIAL_FIELD =
  /^(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|client[-_]?secret|password|passwd|secret|cookie|set-cookie|token)$/i;

/** Fields that identify or classify rather than say anything: never rewritten. */
const STRUCTURAL_FIELD =
  /^(?:id|type|role|timestamp|api|provider|model|stopReason|format|version)$|Id$|_id$|Signature$/;

/** Spans in `text` that `level` replaces, sorted, without overlaps (an earlier or longer span wins). */
export function findSpans(text: string, level: RedactionLevel): Span[] {
  if (level === "none" || text.length < 6) return [];
  const spans: Span[] = [];
  for (const match of text.matchAll(KEY_PATTERN))
    spans.push([match.index, match.index + match[0].length, "key"]);
  for (const match of text.matchAll(BEARER_PATTERN)) {
    const token = match[1] ?? "";
    if (token.length >= 24 || /[\d._~+/=-]/.test(token)) {
      const end = match.index + match[0].length;
      spans.push([end - token.length, end, "token"]);
    }
  }
  for (const match of text.matchAll(ASSIGNMENT_PATTERN)) {
    const value = match[1] ?? "";
    if (value.startsWith("[redacted")) continue;
    const end = match.index + match[0].length;
    spans.push([end - value.length, end, "credential"]);
  }
  privateKeys(text, spans);
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(/[.,;:!?)\]}]+$/, "");
    for (const [start, end] of urlSecretSpans(url))
      spans.push([match.index + start, match.index + end, "url"]);
  }
  if (level === "strict") {
    emails(text, spans);
    for (const match of text.matchAll(HOME_PATTERN))
      spans.push([match.index, match.index + match[0].length, "home"]);
    for (const match of text.matchAll(DIGITS_PATTERN))
      spans.push([match.index, match.index + match[0].length, "digits"]);
  }
  return withoutOverlaps(spans);
}

/** `text` with every span `level` finds replaced by its marker. */
export function redactString(
  text: string,
  level: RedactionLevel,
  found?: (replacement: Replacement) => void,
): string {
  const spans = findSpans(text, level);
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const [start, end, kind] of spans) {
    found?.({ kind, original: text.slice(start, end) });
    out += text.slice(from, start) + marker(kind);
    from = end;
  }
  return out + text.slice(from);
}

/**
 * Rewrite the strings inside a parsed JSON value in place. Walks with its own stack, so a deeply nested
 * value cannot overflow the call stack. Returns whether anything changed.
 */
export function redactValueInPlace(
  root: unknown,
  level: RedactionLevel,
  found: (replacement: Replacement) => void,
): boolean {
  if (level === "none" || root === null || typeof root !== "object") return false;
  let changed = false;
  const stack: object[] = [root];
  while (stack.length > 0) {
    const container = stack.pop() as Record<string, unknown> | unknown[];
    const isArray = Array.isArray(container);
    const keys = isArray ? container.keys() : Object.keys(container);
    for (const key of keys) {
      const value = (container as Record<string | number, unknown>)[key];
      if (value !== null && typeof value === "object") {
        stack.push(value);
        continue;
      }
      if (typeof value !== "string" || value === "") continue;
      let next = value;
      if (!isArray && typeof key === "string") {
        if (STRUCTURAL_FIELD.test(key)) continue;
        if (CREDENTIAL_FIELD.test(key) && !value.startsWith("[redacted")) {
          found({ kind: "credential", original: value });
          next = marker("credential");
        }
      }
      if (next === value) next = redactString(value, level, found);
      if (next !== value) {
        (container as Record<string | number, unknown>)[key] = next;
        changed = true;
      }
    }
  }
  return changed;
}

/** How a file's text is laid out: one JSON document (with its indentation), or one JSON value per line. */
export type FileShape = { kind: "json"; indent: number } | { kind: "jsonl" };

/**
 * Redact a file's text. JSONL: each line on its own, lines without a replacement unchanged. JSON: the
 * document serialized again with `indent` when anything changed. A line or document that is not JSON is
 * an error (every export the page makes is JSON).
 */
export function redactFile(text: string, shape: FileShape, level: RedactionLevel): RedactedFile {
  const counts: Partial<Record<RedactionKind, number>> = {};
  const distinct = new Map<string, Finding>();
  let total = 0;
  const found = (replacement: Replacement): void => {
    total++;
    counts[replacement.kind] = (counts[replacement.kind] ?? 0) + 1;
    const key = `${replacement.kind}\u0000${replacement.original}`;
    const seen = distinct.get(key);
    if (seen) seen.count++;
    else if (distinct.size < MAX_LISTED) distinct.set(key, { ...replacement, count: 1 });
  };
  const listed = (): Finding[] => [...distinct.values()];
  if (level === "none") return { text, counts, total, listed: [] };
  if (shape.kind === "json") {
    const value: unknown = JSON.parse(text);
    const changed = redactValueInPlace(value, level, found);
    const trailing = text.endsWith("\n") ? "\n" : "";
    return {
      text: changed ? JSON.stringify(value, null, shape.indent) + trailing : text,
      counts,
      total,
      listed: listed(),
    };
  }
  const lines = text.split("\n");
  const out = lines.map((line, index) => {
    if (line.trim() === "") return line;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`line ${index + 1} is not JSON (${(error as Error).message})`, { cause: error });
    }
    if (typeof value === "string") {
      const next = redactString(value, level, found);
      return next === value ? line : JSON.stringify(next);
    }
    return redactValueInPlace(value, level, found) ? JSON.stringify(value) : line;
  });
  return { text: out.join("\n"), counts, total, listed: listed() };
}

/** A copied JSON text (a payload), redacted; text that is not JSON is redacted as plain text. */
export function redactCopy(text: string, level: RedactionLevel): string {
  if (level === "none") return text;
  try {
    return redactFile(text, { kind: "json", indent: 2 }, level).text;
  } catch {
    return redactString(text, level);
  }
}

function privateKeys(text: string, spans: Span[]): void {
  const begin = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;
  let match: RegExpExecArray | null;
  while ((match = begin.exec(text))) {
    const endMarker = text.indexOf("-----END ", begin.lastIndex);
    const close = endMarker < 0 ? -1 : text.indexOf("-----", endMarker + 9);
    const end = close < 0 ? text.length : close + 5;
    spans.push([match.index, end, "private-key"]);
    begin.lastIndex = end;
  }
}

const LOCAL_PART = /[A-Za-z0-9._%+-]/;
const DOMAIN_PART = /[A-Za-z0-9.-]/;

/** E-mail addresses, found from each `@` outwards: no pattern that could backtrack over a long text. */
function emails(text: string, spans: Span[]): void {
  let scanFrom = 0;
  let previousEnd = 0;
  for (let at = text.indexOf("@", scanFrom); at >= 0; at = text.indexOf("@", scanFrom)) {
    let start = at;
    while (start > previousEnd && LOCAL_PART.test(text[start - 1] ?? "")) start--;
    let end = at + 1;
    while (end < text.length && DOMAIN_PART.test(text[end] ?? "")) end++;
    while (end > at + 1 && (text[end - 1] === "." || text[end - 1] === "-")) end--;
    const domain = text.slice(at + 1, end);
    if (start < at && /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(domain)) {
      spans.push([start, end, "email"]);
      previousEnd = end;
    } else {
      previousEnd = at + 1;
    }
    scanFrom = Math.max(end, at + 1);
  }
}

function withoutOverlaps(spans: Span[]): Span[] {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const kept: Span[] = [];
  for (const span of spans) {
    const last = kept.at(-1);
    if (last && span[0] < last[1]) {
      if (span[1] > last[1]) last[1] = span[1];
      continue;
    }
    kept.push([...span]);
  }
  return kept;
}

const KIND_NOUNS: Readonly<Record<RedactionKind, [one: string, many: string]>> = {
  key: ["API key", "API keys"],
  token: ["bearer token", "bearer tokens"],
  credential: ["credential", "credentials"],
  url: ["credential in a URL", "credentials in URLs"],
  "private-key": ["private key", "private keys"],
  email: ["e-mail address", "e-mail addresses"],
  home: ["home folder", "home folders"],
  digits: ["long digit run", "long digit runs"],
};

/** "2 API keys, 1 e-mail address": what a redaction replaced, for the preview. */
export function describeCounts(counts: RedactedFile["counts"]): string {
  return (Object.keys(KIND_NOUNS) as RedactionKind[])
    .flatMap((kind) => {
      const count = counts[kind] ?? 0;
      const [one, many] = KIND_NOUNS[kind];
      return count > 0 ? [`${count} ${count === 1 ? one : many}`] : [];
    })
    .join(", ");
}
