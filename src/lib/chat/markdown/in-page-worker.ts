import type { RenderResponse } from "./protocol.ts";
import { createBlockRenderer, hasFencedCode, type Highlighter } from "./render.ts";
import type { WorkerLike } from "./renderer.ts";

/**
 * The Markdown worker's work done in the page, for a page that cannot start workers (a session exported as
 * one HTML file, whose policy allows no worker script). A render cannot be ended half way here, so a
 * pathological source holds the page while it is parsed; the length limit still applies before that.
 */
export function inPageWorker(): WorkerLike {
  let render = createBlockRenderer();
  let highlighter: Promise<Highlighter> | undefined;
  let ended = false;
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage({ id, source }) {
      void (async () => {
        let response: RenderResponse;
        try {
          if (hasFencedCode(source) && !highlighter) {
            highlighter = import("./highlight.ts").then((module) => module.highlight);
            render = createBlockRenderer(await highlighter);
          }
          if (ended) return;
          worker.onmessage?.(new MessageEvent("message", { data: { id, parsing: true } }));
          response = { id, blocks: render(source) };
        } catch (error) {
          response = { id, error: error instanceof Error ? error.message : String(error) };
        }
        if (!ended) worker.onmessage?.(new MessageEvent("message", { data: response }));
      })();
    },
    terminate() {
      ended = true;
    },
  };
  return worker;
}
