import type { ProviderEndpoint } from "../api-types.ts";

/**
 * A provider payload as the proxy keeps it: its JSON text (so it is serialized once, at the moment the
 * adapter hands it over, and served without being parsed again), the first bytes of it past the size
 * limit, or the reason nothing was kept. Sizes are UTF-8 bytes of the JSON.
 */
export type StoredPayload =
  | { kept: "all"; json: string; bytes: number }
  | { kept: "truncated"; text: string; bytes: number }
  | { kept: "none"; bytes: number; reason: string };

/** Rewrites values while the payload is serialized: how the server scrubs secrets in the same pass. */
export type JsonReplacer = (key: string, value: unknown) => unknown;

/** Serialize `value` once and keep it whole up to `limit` bytes, or its first `limit` bytes as text. */
export function captureJson(value: unknown, limit: number, replacer?: JsonReplacer): StoredPayload {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, replacer);
  } catch (error) {
    return {
      kept: "none",
      bytes: 0,
      reason: `it could not be written as JSON (${(error as Error).message})`,
    };
  }
  if (json === undefined) return { kept: "none", bytes: 0, reason: "the provider handed over no payload" };
  const bytes = utf8Bytes(json);
  if (bytes <= limit) return { kept: "all", json, bytes };
  return { kept: "truncated", text: utf8Prefix(json, limit), bytes };
}

/** UTF-8 length of a string without encoding it (payloads reach megabytes; no copy is made). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `limit` bytes (characters are never split), as
 * a string of its own. `text.slice` would not do: V8 makes a slice a view into the whole string, so a kept
 * 2 MB prefix of an 18 MB payload would hold all 18 MB. Decoding the bytes makes a new string.
 */
function utf8Prefix(text: string, limit: number): string {
  const bytes = new Uint8Array(Math.max(0, limit));
  const { written } = new TextEncoder().encodeInto(text, bytes);
  return new TextDecoder().decode(bytes.subarray(0, written));
}

/**
 * The bytes a string occupies in a JavaScript engine: one per character when every character is Latin-1,
 * two otherwise (V8 and the others store a string in one width). One non-Latin-1 character in a JSON
 * payload doubles it, so this, not its UTF-8 length, is what the store counts.
 */
export function heldBytes(text: string): number {
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0xff) return 2 * text.length;
  }
  return text.length;
}

/** The bytes a stored payload occupies in memory, as counted against the store's total. */
export function storedBytes(payload: StoredPayload): number {
  switch (payload.kept) {
    case "all":
      return heldBytes(payload.json);
    case "truncated":
      return heldBytes(payload.text);
    case "none":
      return heldBytes(payload.reason);
  }
}

/**
 * The JSON of a `PayloadResponse` for a stored payload, written around the kept JSON text rather than
 * parsing and serializing it again.
 */
export function payloadResponseJson(payload: StoredPayload, endpoint?: ProviderEndpoint): string {
  const tail = endpoint ? `,"endpoint":${JSON.stringify(endpoint)}}` : "}";
  switch (payload.kept) {
    case "all":
      return `{"payload":{"kept":"all","bytes":${payload.bytes},"value":${payload.json}}${tail}`;
    case "truncated":
    case "none":
      return `{"payload":${JSON.stringify(payload)}${tail}`;
  }
}
