import type { JsonReplacer } from "../shared/payloads/captured-json.ts";
import type { Redactor } from "./redact.ts";

/** Fields that hold credentials wherever they occur in a payload: their values are never kept. */
const CREDENTIAL_FIELDS = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|x-goog-api-key)$/i;

/**
 * How a provider payload is scrubbed while it is serialized for keeping: every string goes through the
 * server's redactor (the values of secret environment variables, credentials in URLs), object keys too
 * (tool arguments and schemas are objects whose keys are whatever the model or the page wrote), and
 * credential fields lose their value whatever it is. Strings are redacted one by one, so the JSON stays valid.
 */
export function payloadReplacer(redactor: Pick<Redactor, "text">): JsonReplacer {
  return (key, value) => {
    if (typeof value === "string") return CREDENTIAL_FIELDS.test(key) ? "[redacted]" : redactor.text(value);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    return withScrubbedKeys(value as Record<string, unknown>, redactor);
  };
}

/**
 * The object itself when none of its keys holds a secret (the usual case: nothing is copied), else a copy
 * with those keys scrubbed, in the same order. Two keys that scrub alike both stay, numbered.
 */
function withScrubbedKeys(object: Record<string, unknown>, redactor: Pick<Redactor, "text">): object {
  const keys = Object.keys(object);
  let copy: Record<string, unknown> | undefined;
  for (const [index, key] of keys.entries()) {
    const scrubbed = redactor.text(key);
    if (scrubbed === key && copy === undefined) continue;
    if (copy === undefined) {
      // No prototype: a key the page wrote ("__proto__") is only ever a key.
      copy = Object.create(null) as Record<string, unknown>;
      for (const earlier of keys.slice(0, index)) copy[earlier] = object[earlier];
    }
    let unique = scrubbed;
    for (let n = 2; Object.hasOwn(copy, unique); n++) unique = `${scrubbed} (${n})`;
    copy[unique] = object[key];
  }
  return copy ?? object;
}
