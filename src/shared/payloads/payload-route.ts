import { API_ROUTES } from "../api-routes.ts";
import { HttpError } from "../http-error.ts";
import { payloadResponseJson } from "./captured-json.ts";
import type { PayloadStore } from "./payload-store.ts";
import type { ProviderEndpoint } from "../api-types.ts";

/** `GET /api/calls/:callId/payload`: the provider payload of one call, by the id the page gave it. */
const PAYLOAD_PATH = /\/api\/calls\/([^/]*)\/payload$/;

/** Call ids are the page's UUIDs; anything else is refused before it is used as a key. */
const CALL_ID = /^[A-Za-z0-9_-]{8,128}$/;

export const PREVIEW_PATH = API_ROUTES.preview.path;

/**
 * The call id segment of a payload route as the address has it (still percent-encoded, unchecked), or
 * undefined when `path` is not a payload route. Nothing is decoded here: routes are matched before the
 * guards run, and what the address says is read only after them (`decodeCallId`).
 */
export function payloadRouteSegment(path: string): string | undefined {
  return PAYLOAD_PATH.exec(path)?.[1];
}

/** The call id a payload route's segment names, decoded and checked: a 400 saying why for anything else. */
export function decodeCallId(segment: string): string {
  const what = "The call id in the address";
  return checkCallId(decodePathSegment(segment, what), what);
}

/** A percent-encoded path segment, decoded; malformed encoding is the sender's mistake (400), not ours. */
export function decodePathSegment(segment: string, what: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(
      400,
      `${what} is not valid percent-encoding: ${JSON.stringify(segment.slice(0, 40))}.`,
    );
  }
}

export function checkCallId(value: string, what: string): string {
  if (!CALL_ID.test(value)) {
    throw new HttpError(
      400,
      `${what} must be 8 to 128 letters, digits, "-" or "_"; got ${JSON.stringify(value.slice(0, 40))}.`,
    );
  }
  return value;
}

/**
 * The answer of the payload route, the same from the proxy and from the page: the payload as kept (or why
 * none was), with the provider's endpoint when the caller can name it; 404 for a call no longer held.
 */
export async function answerPayload(
  store: PayloadStore,
  callId: string,
  endpointOf: (provider: string, modelId: string) => Promise<ProviderEndpoint | undefined>,
): Promise<string> {
  if (!store.enabled) {
    return payloadResponseJson({
      kept: "none",
      bytes: 0,
      reason: "this proxy keeps no provider payloads (it was started with MAX_PAYLOAD_STORE_BYTES=0)",
    });
  }
  const entry = store.read(callId);
  if (!entry) {
    const minutes = Math.round((store.limits.ttlMs / 60_000) * 10) / 10;
    throw new HttpError(
      404,
      `No payload is kept for call ${callId}: this proxy did not serve that call, or it was dropped (payloads are kept ${minutes} min, PAYLOAD_TTL_MS, and the oldest go first past MAX_PAYLOAD_STORE_BYTES).`,
    );
  }
  const payload = entry.payload ?? {
    kept: "none",
    bytes: 0,
    reason: "the call is still starting: the provider has not built its request yet",
  };
  return payloadResponseJson(payload, await endpointOf(entry.model.provider, entry.model.modelId));
}
