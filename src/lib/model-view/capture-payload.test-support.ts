import type { Api, Message, Model, StreamFunction, StreamOptions } from "@earendil-works/pi-ai";
import { normalizeContext } from "@earendil-works/pi-ai/utils/transcript";
import { expect } from "vitest";

/**
 * The request body one of pi-ai's own adapters builds for a context, for the tests that read bodies back
 * (provider conformance, raw request import): `onPayload` (awaited before the request is made) keeps a copy
 * of the body and aborts, so nothing is sent.
 */

export type AnyStreamFunction = StreamFunction<Api, StreamOptions>;

/** The body `stream` builds for `messages`, kept by `onPayload`, which aborts before anything is sent. */
export async function capturePayload(
  stream: AnyStreamFunction,
  model: Model<Api>,
  messages: Message[],
): Promise<unknown> {
  const controller = new AbortController();
  let payload: unknown;
  const events = stream(model, normalizeContext({ messages }), {
    apiKey: FAKE_KEY,
    signal: controller.signal,
    onPayload: (body) => {
      payload = JSON.parse(JSON.stringify(body));
      controller.abort();
      return undefined;
    },
  });
  const reply = await events.result();
  expect(reply.stopReason, reply.errorMessage).toBe("aborted");
  expect(payload, "the adapter built no request body").toBeDefined();
  return payload;
}

// A codex key must be a JWT naming an account; this one names "acct" and is signed by no one.
export const FAKE_KEY =
  "eyJhbGciOiJub25lIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdCJ9fQ.x";
