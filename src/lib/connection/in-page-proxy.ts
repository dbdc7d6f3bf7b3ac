import type { ApiErrorBody } from "../../shared/api-types.ts";
import { HttpError } from "../../shared/http-error.ts";
import { MirrorApi } from "../../shared/mirror/mirror-api.ts";
import { matchApiRoute } from "../../shared/api-route-match.ts";
import { decodeCallId } from "../../shared/payloads/payload-route.ts";
import { sseFrame } from "../../shared/proxy-events.ts";

/**
 * The proxy's routes answered inside the page, for the offline models: a `fetch` that `streamProxy` (and
 * the model list) talk to as they would to the proxy, with the same status codes, JSON errors and SSE
 * frames. Loaded only when no proxy is used, so a page with a proxy never downloads the mirror.
 */
export interface InPageProxy {
  fetch: typeof fetch;
}

/** What a request for a real model gets when no proxy is connected. */
function describeUnknownModel(provider: string, id: string): string {
  return `${provider}/${id} needs a proxy, and none is connected: only the offline Mirror models run in this page. Choose one of them, or connect a proxy (the Proxy button beside the model picker).`;
}

export function createInPageProxy(): InPageProxy {
  const api = new MirrorApi({ describeUnknownModel });

  async function answer(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    // Only the path matters: the request may name the in-page address or a proxy that went away.
    const url = new URL(request?.url ?? String(input), "http://in-page.invalid");
    const method = (init.method ?? request?.method ?? "GET").toUpperCase();
    const signal = init.signal ?? request?.signal ?? undefined;
    signal?.throwIfAborted();
    try {
      // The routes of the proxy's table that the page answers; the address before "/api/" is the proxy's.
      const at = url.pathname.lastIndexOf("/api/");
      const path = at >= 0 ? url.pathname.slice(at) : url.pathname;
      const route = matchApiRoute(path);
      if (!route?.spec.inPage) throw new HttpError(404, `No such API endpoint: ${url.pathname}`);
      const expected = route.spec.method;
      if (method !== expected) throw new HttpError(405, `${path} accepts ${expected} only.`);
      const body = async () =>
        typeof init.body === "string" ? init.body : await new Response(init.body ?? request?.body).text();
      switch (route.name) {
        case "payload":
          return jsonText(200, await api.payload(decodeCallId(route.callIdSegment ?? "")));
        case "models":
          return json(200, await api.listModels());
        case "preview":
          return jsonText(200, await api.preview(await body(), signal));
        case "stream":
          return streamResponse(await body(), signal);
        case "session":
          throw new HttpError(404, `No such API endpoint: ${url.pathname}`);
      }
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const body: ApiErrorBody = { error: error.message };
      return json(error.status, body);
    }
  }

  function streamResponse(body: string, signal: AbortSignal | undefined): Response {
    const upstream = new AbortController();
    const stop = () => upstream.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    // Bad input throws here, before anything streams: a status, as the proxy answers it.
    const events = api.stream(body, upstream.signal);
    const encoder = new TextEncoder();
    const finish = () => signal?.removeEventListener("abort", stop);
    const frames = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await events.next();
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(sseFrame(next.value)));
      },
      // The reader went away (the user stopped the run): stop the reply as the proxy stops its upstream.
      cancel() {
        finish();
        upstream.abort();
        void events.return(undefined);
      },
    });
    return new Response(frames, {
      status: 200,
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" },
    });
  }

  return { fetch: answer };
}

function json(status: number, body: unknown): Response {
  return jsonText(status, JSON.stringify(body));
}

/** JSON already written: the payload routes write theirs around the payload as it was kept. */
function jsonText(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}
