import { loadValidators } from "../messages/validators.ts";
import { readSessionFile } from "./import-file.ts";
import { sliceLength, type ImportReply, type ImportRequest } from "./import-protocol.ts";
import { ImportError } from "./parsed-import.ts";

/**
 * The import worker: reads, parses and checks a chosen session file off the main thread, so that no file,
 * however large or strange, freezes the page. Cancelling ends this worker; nothing is stored before the
 * page has received everything.
 */
const scope = self as unknown as {
  postMessage(message: ImportReply): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ImportRequest>) => void): void;
};

scope.addEventListener("message", (event) => void read(event.data.file));

async function read(file: File): Promise<void> {
  try {
    await loadValidators();
    const parsed = await readSessionFile(file, (progress) =>
      scope.postMessage({ type: "progress", ...progress }),
    );
    const { entries, calls } = parsed;
    const length = sliceLength(entries.length + calls.length, file.size);
    for (let start = 0; start < entries.length; start += length)
      scope.postMessage({ type: "entries", entries: entries.slice(start, start + length) });
    for (let start = 0; start < calls.length; start += length)
      scope.postMessage({ type: "calls", calls: calls.slice(start, start + length) });
    scope.postMessage({ type: "done", parsed: { ...parsed, entries: [], calls: [] } });
  } catch (error) {
    scope.postMessage({
      type: "error",
      message: error instanceof Error ? error.message : String(error),
      expected: error instanceof ImportError,
    });
  }
}
