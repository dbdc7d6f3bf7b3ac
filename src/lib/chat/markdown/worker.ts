import type { RenderRequest, RenderResponse } from "./protocol.ts";
import { createBlockRenderer, hasFencedCode, type Highlighter } from "./render.ts";

/**
 * The Markdown worker: parses off the main thread, so that no input, however pathological for the parser,
 * can freeze the page. The page gives each request a time budget and ends this worker when it is spent.
 */
let render = createBlockRenderer();
let loading: Promise<Highlighter> | undefined;

const scope = self as unknown as {
  postMessage(message: RenderResponse): void;
  addEventListener(type: "message", listener: (event: MessageEvent<RenderRequest>) => void): void;
};

scope.addEventListener("message", (event) => void answer(event.data));

async function answer({ id, source }: RenderRequest): Promise<void> {
  try {
    if (hasFencedCode(source) && !loading) {
      // Highlighting is loaded the first time a code block appears, then used for every reply.
      loading = import("./highlight.ts").then((module) => module.highlight);
      render = createBlockRenderer(await loading);
    }
    // Loading took what it took (a busy machine, a slow disk); only the parse itself is on the clock.
    scope.postMessage({ id, parsing: true });
    scope.postMessage({ id, blocks: render(source) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
}
