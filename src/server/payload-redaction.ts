import type { JsonReplacer } from "../shared/payloads/captured-json.ts";
import type { Redactor } from "./redact.ts";

/** Fields that hold credentials wherever they occur in a payload: their values are never kept. */
const CREDENTIAL_FIELDS = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|x-goog-api-key)$/i;

/**
 * How a provider payload is scrubbed while it is serialized for keeping: every string goes through the
 * server's redactor (the values of secret environment variables, credentials in URLs), and credential
 * fields lose their value whatever it is. Strings are redacted one by one, so the JSON stays valid.
 */
export function payloadReplacer(redactor: Pick<Redactor, "text">): JsonReplacer {
  return (key, value) => {
    if (typeof value !== "string") return value;
    return CREDENTIAL_FIELDS.test(key) ? "[redacted]" : redactor.text(value);
  };
}
