import type { SessionEntry } from "../messages/entries.ts";
import { loadValidators } from "../messages/validators.ts";
import { IdbSessionStore } from "../storage/idb-store.ts";
import type { SessionMeta } from "../storage/records.ts";
import { readSessionFile } from "./import-file.ts";
import { sliceLength, type ImportReply, type ImportRequest, type TextsApart } from "./import-protocol.ts";
import { takeLongTexts, type ItemsWithoutLongTexts } from "./long-texts.ts";
import { ImportError, withSystemEntry, type ParsedImport } from "./parsed-import.ts";

/**
 * The import worker: reads, parses and checks a chosen session file off the main thread, so that no file,
 * however large or strange, freezes the page; then, when the page asks, stores the entries and recorded
 * calls it read as the new session, in one transaction, so that copying them into IndexedDB is this
 * thread's work too. Cancelling while reading
 * ends this worker; cancelling while storing aborts the session's one transaction: nothing is stored.
 */
const scope = self as unknown as {
  postMessage(message: ImportReply): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ImportRequest>) => void): void;
};

/** The file read, kept until it is stored (or the page ends this worker). */
let parsed: ParsedImport | undefined;
let storing: AbortController | undefined;

scope.addEventListener("message", ({ data }) => {
  if (data.type === "read") void read(data.file);
  else if (data.type === "store") void store(data.meta, data.system);
  else storing?.abort();
});

async function read(file: File): Promise<void> {
  try {
    await loadValidators();
    parsed = await readSessionFile(file, (progress) => scope.postMessage({ type: "progress", ...progress }));
    const { entries, calls } = parsed;
    const length = sliceLength(entries.length + calls.length, file.size);
    // Each slice's long texts go first, a piece per message: no message is a long task for the page to take in.
    for (let start = 0; start < entries.length; start += length) {
      const { items, ...texts } = takeLongTexts(entries.slice(start, start + length));
      for (const piece of texts.pieces) scope.postMessage({ type: "text", piece });
      scope.postMessage({ type: "entries", entries: items, ...textsApart(texts) });
    }
    for (let start = 0; start < calls.length; start += length) {
      const { items, ...texts } = takeLongTexts(calls.slice(start, start + length));
      for (const piece of texts.pieces) scope.postMessage({ type: "text", piece });
      scope.postMessage({ type: "calls", calls: items, ...textsApart(texts) });
    }
    scope.postMessage({ type: "done", parsed: { ...parsed, entries: [], calls: [] } });
  } catch (error) {
    scope.postMessage({
      type: "error",
      message: error instanceof Error ? error.message : String(error),
      expected: error instanceof ImportError,
    });
  }
}

/** What a slice's message says of its texts sent apart, without the empty parts. */
function textsApart({ taken, pooled, pool }: Omit<ItemsWithoutLongTexts<unknown>, "items">): TextsApart {
  return {
    ...(taken.length > 0 ? { taken } : {}),
    ...(pooled.length > 0 ? { pooled, pool } : {}),
  };
}

async function store(meta: SessionMeta, system: SessionEntry | undefined): Promise<void> {
  const controller = new AbortController();
  storing = controller;
  try {
    if (!parsed) throw new Error("the import worker holds no file to store");
    const entries = system ? withSystemEntry(parsed.entries, system) : parsed.entries;
    const store = await IdbSessionStore.open();
    try {
      const created = await store.createSession(meta, entries, {
        calls: parsed.calls,
        signal: controller.signal,
        onProgress: (done, total) => scope.postMessage({ type: "storing", done, total }),
      });
      scope.postMessage({ type: "stored", meta: created.meta });
    } finally {
      store.close();
    }
  } catch (error) {
    scope.postMessage({
      type: "store-failed",
      message: error instanceof Error ? error.message : String(error),
      cancelled: controller.signal.aborted,
    });
  }
}
