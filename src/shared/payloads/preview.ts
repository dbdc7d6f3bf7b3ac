import type {
  Api,
  AssistantMessage,
  AssistantMessageEventStream,
  Message,
  Model,
  SimpleStreamOptions,
} from "@earendil-works/pi-ai";

export type StreamSimple = (
  model: Model<Api>,
  context: { messages: Message[] },
  options: SimpleStreamOptions,
) => AssistantMessageEventStream;

export type PreviewResult = { built: true; payload: unknown } | { built: false; reply: AssistantMessage };

/**
 * The payload a provider would receive now, built by its real adapter: the request is started with an
 * `onPayload` hook that takes the body and aborts the request's own signal, which the adapter hands to
 * its HTTP client, so the request stops before anything is sent. An adapter that fails before building
 * a body gives its reply (the error) instead.
 */
export async function previewPayload(
  streamSimple: StreamSimple,
  model: Model<Api>,
  messages: Message[],
  options: SimpleStreamOptions,
  signal?: AbortSignal,
): Promise<PreviewResult> {
  const dryRun = new AbortController();
  const stop = () => dryRun.abort(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  let built: { payload: unknown } | undefined;
  try {
    const reply = await streamSimple(
      model,
      { messages },
      {
        ...options,
        signal: dryRun.signal,
        onPayload: (payload) => {
          built = { payload };
          dryRun.abort(new Error("preview: the payload is built, the request is not sent"));
          return undefined;
        },
      },
    ).result();
    return built ? { built: true, payload: built.payload } : { built: false, reply };
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}
