/**
 * Values written into generated code, each encoded for the language it lands in. Everything a call record
 * holds may come from a file someone shared or a server someone runs (a model id, a header, an address), so
 * no value may ever end a string, a quote or a comment early: it stays data whatever it contains.
 */

const LINE_SEPARATORS = /[\u2028\u2029]/g;

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * A TypeScript string literal. JSON's string syntax is a subset of JavaScript's; U+2028 and U+2029 are
 * escaped too, which older parsers read as line ends.
 */
export function tsString(value: string): string {
  return JSON.stringify(value).replace(LINE_SEPARATORS, unicodeEscape);
}

/**
 * A TypeScript expression for a JSON value, laid out over lines. A `"__proto__"` key is written as a
 * computed key: in an object literal the plain key would set the prototype instead of making a property.
 */
export function tsValue(value: unknown): string {
  const json = JSON.stringify(value, null, 2) as string | undefined;
  if (json === undefined) return "undefined";
  // Pretty-printed JSON puts every key at the start of its line; string values never hold a raw newline.
  return json.replace(LINE_SEPARATORS, unicodeEscape).replace(/^(\s*)"__proto__":/gm, '$1["__proto__"]:');
}

/**
 * A Python string literal. Everything outside printable ASCII is escaped (`\u…`, or `\U…` past the Basic
 * Multilingual Plane, which Python does not pair from two `\u` surrogates).
 */
export function pythonString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (char === "\\" || char === '"') out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code > 0xffff) out += `\\U${code.toString(16).padStart(8, "0")}`;
    else out += `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return `${out}"`;
}

/** A Python expression for a JSON value (dicts, lists, str, int/float, True/False/None), laid out over lines. */
export function pythonValue(value: unknown, indent = ""): string {
  const json = JSON.parse(JSON.stringify(value) ?? "null") as unknown;
  return pythonJson(json, indent);
}

function pythonJson(value: unknown, indent: string): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return pythonString(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${pythonJson(item, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${pythonString(key)}: ${pythonJson(item, inner)},`).join("\n")}\n${indent}}`;
}

/** A POSIX shell word that the shell takes literally: single quotes, each `'` written as `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Text for a comment in any of the three languages: printable ASCII as it is, anything else escaped, so no
 * line end (LF, CR, U+2028, U+2029) can finish the comment and start code.
 */
export function commentText(value: string): string {
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    out +=
      code >= 0x20 && code < 0x7f ? char : code > 0xffff ? `\\u{${code.toString(16)}}` : unicodeEscape(char);
  }
  return out;
}

/** An HTTP header name as RFC 9110 allows it (a token). */
export function isHeaderName(name: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
}

/** A header value curl can send as one header: no line ends or NUL that would start another. */
export function isHeaderValue(value: string): boolean {
  return !/[\r\n\0]/.test(value);
}

/** An address curl and the SDKs treat as a web request, never a local file or an option. */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    return (url.protocol === "http:" || url.protocol === "https:") && !/[\s\u0000-\u001f\u007f]/.test(value);
  } catch {
    return false;
  }
}
