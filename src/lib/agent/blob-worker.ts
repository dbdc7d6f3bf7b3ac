import type { ComposeReply, ComposeRequest } from "./blob-composer.ts";

/**
 * Composes the Blobs the page asks for (blob-composer.ts). The browser's registration of each new Blob, a
 * synchronous call to its own process, then holds this thread instead of the page's.
 */
const scope = self as unknown as {
  postMessage(message: ComposeReply): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ComposeRequest>) => void): void;
};

scope.addEventListener("message", ({ data }) =>
  scope.postMessage({ id: data.id, blob: new Blob(data.parts) }),
);
