import { describe, expect, it } from "vitest";
import { loadValidators } from "../messages/validators.ts";
import { CANCELLED_MESSAGE, ImportCancelled, readFileInWorker, type ImportProgress } from "./file-import.ts";
import { parseSessionFile } from "./import-file.ts";
import { ImportError } from "./parsed-import.ts";

/**
 * Reading a chosen file in the import worker, in Chromium: what the page receives is what parsing the
 * file on the page gives, in slices, with the progress said along the way; a bad file is the same clear
 * error; Cancel ends the worker.
 */

const START = Date.UTC(2026, 0, 1);

/** A pi session file: its header and a chain of `count` user messages. */
function piFile(count: number, text = (index: number) => `message ${index}`): string {
  const header = {
    type: "session",
    version: 3,
    id: "s",
    timestamp: new Date(START).toISOString(),
    cwd: "/w",
  };
  const entries = Array.from({ length: count }, (_, index) => ({
    type: "message",
    id: `e${index}`,
    parentId: index === 0 ? null : `e${index - 1}`,
    timestamp: new Date(START + index).toISOString(),
    message: { role: "user", content: text(index), timestamp: START + index },
  }));
  return `${[header, ...entries].map((value) => JSON.stringify(value)).join("\n")}\n`;
}

describe("Large imports freeze the tab: a file is read in a worker", () => {
  it("reads 20,000 entries off the page, as the page would read them, saying how far it has come", async () => {
    const text = piFile(20_000);
    const file = new File([text], "many.jsonl", { type: "application/jsonl" });
    const seen: ImportProgress[] = [];
    const parsed = await readFileInWorker(file, { onProgress: (progress) => seen.push(progress) });
    await loadValidators();
    const onPage = parseSessionFile(text, "many.jsonl");
    expect(parsed.entries).toEqual(onPage.entries);
    expect(parsed.entries).toHaveLength(20_000);
    expect({ ...parsed, entries: [], piHeader: undefined }).toEqual({
      ...onPage,
      entries: [],
      piHeader: undefined,
    });
    expect(seen.some((progress) => progress.phase === "reading" && progress.done === file.size)).toBe(true);
    expect(seen.filter((progress) => progress.phase === "parsing").length).toBeGreaterThan(1);
  });

  it("turns a file that cannot be imported into the same clear error", async () => {
    const file = new File(["{not json"], "broken.json");
    const error = await readFileInWorker(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportError);
    expect(() => parseSessionFile("{not json", "broken.json")).toThrow((error as Error).message);
  });

  it("is cancelled at once, the worker ended, with a clear message", async () => {
    const controller = new AbortController();
    const file = new File([piFile(50_000)], "cancelled.jsonl");
    let ended = false;
    const reading = readFileInWorker(file, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
      createWorker: () => {
        const worker = new Worker(new URL("./import-worker.ts", import.meta.url), { type: "module" });
        const terminate = worker.terminate.bind(worker);
        worker.terminate = () => {
          ended = true;
          terminate();
        };
        return worker as never;
      },
    });
    const error = await reading.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportCancelled);
    expect((error as Error).message).toBe(CANCELLED_MESSAGE);
    expect(ended).toBe(true);
  });
});
