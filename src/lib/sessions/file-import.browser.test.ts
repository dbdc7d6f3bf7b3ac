import { afterEach, describe, expect, it } from "vitest";
import { newSession, storeNewSession } from "../agent/new-session.ts";
import { loadValidators } from "../messages/validators.ts";
import { IdbSessionStore } from "../storage/idb-store.ts";
import type { SessionStore } from "../storage/session-store.ts";
import {
  CANCELLED_MESSAGE,
  ImportCancelled,
  openFileInWorker,
  readFileInWorker,
  type ImportProgress,
  type ImportWorker,
} from "./file-import.ts";
import { parseSessionFile } from "./import-file.ts";
import { ImportError } from "./parsed-import.ts";

/**
 * Reading a chosen file in the import worker, in Chromium: what the page receives is what parsing the
 * file on the page gives, in slices, with the progress said along the way; a bad file is the same clear
 * error; Cancel ends the worker. The same worker stores what it read in this origin's IndexedDB, so the
 * page never copies the entries into storage; Cancel while it stores leaves nothing of the new session.
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

/** Sessions a test stored (or may have): removed after it, so the test browser's IndexedDB is left as found. */
const storedIds: string[] = [];
afterEach(async () => {
  const store = await IdbSessionStore.open();
  try {
    for (const id of storedIds.splice(0)) {
      await store.deleteSession(id);
      expect(await store.getMeta(id)).toBeUndefined();
      expect((await store.listCalls(id)).calls).toEqual([]);
    }
  } finally {
    store.close();
  }
});

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

  it("takes in an entry holding 3 MB of text in messages of at most 1 MB, the entry as the file has it", async () => {
    const huge = `${"y".repeat(3 * 1024 * 1024)}\u{1F600}`;
    const text = piFile(3, (index) => (index === 1 ? huge : `message ${index}`));
    // Each message the page receives from the worker, by the length of its JSON.
    const received: number[] = [];
    const parsed = await readFileInWorker(new File([text], "huge.jsonl"), {
      createWorker: () => {
        const worker = new Worker(new URL("./import-worker.ts", import.meta.url), { type: "module" });
        const relay: ImportWorker = {
          postMessage: (message) => worker.postMessage(message),
          terminate: () => worker.terminate(),
          onmessage: null,
          onerror: null,
        };
        worker.onmessage = (event: MessageEvent) => {
          received.push(JSON.stringify(event.data).length);
          relay.onmessage?.(event);
        };
        worker.onerror = (event) => relay.onerror?.(event);
        return relay;
      },
    });
    await loadValidators();
    const onPage = parseSessionFile(text, "huge.jsonl");
    expect(JSON.stringify(parsed.entries) === JSON.stringify(onPage.entries)).toBe(true);
    expect(parsed.entries).toHaveLength(3);
    // Four pieces of the text, none of the messages much over a megabyte (its JSON escapes a little).
    expect(received.filter((length) => length > 1024 * 1024 - 100)).toHaveLength(3);
    expect(Math.max(...received)).toBeLessThan(1.01 * 1024 * 1024 + 100);
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

describe("Large imports freeze the tab: the worker that read a file stores it", () => {
  /** The page's store, counting the sessions it is asked to create itself. */
  function counting(store: SessionStore): { store: SessionStore; created: () => number } {
    let created = 0;
    return {
      store: new Proxy(store, {
        get(target, key, receiver) {
          if (key === "createSession") {
            return (...args: Parameters<SessionStore["createSession"]>) => {
              created++;
              return target.createSession(...args);
            };
          }
          const value: unknown = Reflect.get(target, key, receiver);
          return typeof value === "function" ? (value as () => unknown).bind(target) : value;
        },
      }),
      created: () => created,
    };
  }

  it("stores the session from the worker: the page creates nothing, and IndexedDB holds every entry", async () => {
    const file = new File([piFile(5_000)], "stored.jsonl");
    const { parsed, storer } = await openFileInWorker(file);
    expect(storer).toBeDefined();
    const pageStore = await IdbSessionStore.open();
    const { store, created } = counting(pageStore);
    const progress: number[] = [];
    try {
      const made = await storeNewSession(
        store,
        { entries: parsed.entries, leafId: parsed.leafId, title: "stored" },
        {
          storedElsewhere: (meta) =>
            storer!.store(meta, undefined, { onProgress: (done) => progress.push(done) }),
        },
      );
      storedIds.push(made.meta.id);
      expect(created()).toBe(0);
      expect(made.stored.meta?.messageCount).toBe(5_000);
      const loaded = await pageStore.loadSession(made.meta.id);
      expect(loaded?.meta).toEqual(made.stored.meta);
      expect(loaded?.records.map((record) => record.entry)).toEqual(parsed.entries);
      expect(loaded?.records).toEqual(made.stored.records);
      expect(progress.at(-1)).toBe(5_000);
    } finally {
      storer?.close();
      pageStore.close();
    }
  });

  it("puts the system message first where the file has none, as the page would", async () => {
    const flat = [
      { role: "user", content: "hello", timestamp: START },
      { role: "user", content: "again", timestamp: START + 1 },
    ];
    const file = new File([JSON.stringify(flat)], "flat.json");
    const { parsed, storer } = await openFileInWorker(file);
    const pageStore = await IdbSessionStore.open();
    try {
      expect(parsed.addSystemFact).toBe(true);
      const { planImport } = await import("./import-session.ts");
      const { createSystemFact } = await import("../agent/new-session.ts");
      const plan = planImport(parsed, { hasModel: () => false, systemFact: () => createSystemFact() });
      const { meta, entries } = newSession(plan.init);
      storedIds.push(meta.id);
      await storer!.store(meta, plan.system);
      const loaded = await pageStore.loadSession(meta.id);
      expect(loaded?.records.map((record) => record.entry)).toEqual(entries);
      expect(entries[0]?.id).toBe(plan.system?.id);
    } finally {
      storer?.close();
      pageStore.close();
    }
  });

  it("stores nothing when cancelled while it stores, and the sessions already stored are kept", async () => {
    const pageStore = await IdbSessionStore.open();
    const kept = newSession({ title: "kept", entries: [] });
    storedIds.push(kept.meta.id);
    await pageStore.createSession(kept.meta, kept.entries);
    const before = (await pageStore.listSessions()).sessions.map((meta) => meta.id).sort();
    const file = new File([piFile(20_000)], "cancelled-store.jsonl");
    const { parsed, storer } = await openFileInWorker(file);
    const controller = new AbortController();
    try {
      const { meta } = newSession({ entries: parsed.entries, leafId: parsed.leafId });
      storedIds.push(meta.id);
      const storing = storer!.store(meta, undefined, { signal: controller.signal });
      controller.abort();
      const error = await storing.catch((caught: unknown) => caught);
      expect(error).toBe(controller.signal.reason);
      expect(await pageStore.getMeta(meta.id)).toBeUndefined();
      expect((await pageStore.listSessions()).sessions.map((meta) => meta.id).sort()).toEqual(before);
      expect((await pageStore.loadSession(kept.meta.id))?.meta.title).toBe("kept");
    } finally {
      storer?.close();
      pageStore.close();
    }
  });
});

describe("Large imports freeze the tab: an LHAR file's calls are stored with their session", () => {
  /** An LHAR file (lines, as Context Lens writes them) of `count` calls of an OpenAI chat request each. */
  function lharFile(count: number): File {
    const session = {
      type: "session",
      trace_id: "0".repeat(32),
      started_at: new Date(0).toISOString(),
      tool: "pi",
      model: "gpt-4o",
    };
    const entry = (index: number) => ({
      type: "entry",
      id: `call-${index}`,
      trace_id: "0".repeat(32),
      span_id: index.toString(16).padStart(16, "0"),
      parent_span_id: null,
      timestamp: new Date(START + index * 1_000).toISOString(),
      sequence: index + 1,
      source: {
        tool: "pi",
        tool_version: null,
        agent_role: "main",
        collector: "test",
        collector_version: "1",
      },
      gen_ai: {
        system: "openai",
        request: { model: "gpt-4o", max_tokens: 100, temperature: null, top_p: null, stop_sequences: [] },
        response: { model: null, finish_reasons: ["stop"] },
        usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
      },
      usage_ext: { cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0 },
      http: {
        method: "POST",
        url: null,
        status_code: 200,
        api_format: "openai-completions",
        stream: true,
        request_headers: {},
        response_headers: {},
      },
      timings: { send_ms: 0, wait_ms: 10, receive_ms: 10, total_ms: 20, tokens_per_second: 100 },
      transfer: { request_bytes: 100, response_bytes: 0, compressed: false },
      context_lens: {
        window_size: 128_000,
        utilization: 0,
        system_tokens: 0,
        tools_tokens: 0,
        messages_tokens: 10,
        composition: [{ category: "user_text", tokens: 10, pct: 100, count: 1 }],
        growth: { tokens_added_this_turn: null, cumulative_tokens: 10, compaction_detected: false },
        security: { alerts: [], summary: { high: 0, medium: 0, info: 0 } },
      },
      raw: {
        request_body: {
          model: "gpt-4o",
          messages: [{ role: "user", content: `call ${index}` }],
          stream: true,
        },
        response_body: null,
      },
    });
    const lines = [session, ...Array.from({ length: count }, (_, index) => entry(index))];
    return new File([`${lines.map((line) => JSON.stringify(line)).join("\n")}\n`], "calls.lhar");
  }

  it("stores every call in the worker's one transaction, the session's metadata counting them", async () => {
    const { parsed, storer } = await openFileInWorker(lharFile(300));
    const pageStore = await IdbSessionStore.open();
    try {
      expect(parsed.calls).toHaveLength(300);
      const { meta } = newSession({ entries: parsed.entries, leafId: parsed.leafId });
      storedIds.push(meta.id);
      const stored = await storer!.store(meta, undefined);
      expect(stored.nextCallSeq).toBe(300);
      const { calls } = await pageStore.listCalls(meta.id);
      expect(calls.map((call) => call.seq)).toEqual(parsed.calls.map((_, seq) => seq));
      expect(await pageStore.getMeta(meta.id)).toEqual(stored);
    } finally {
      storer?.close();
      pageStore.close();
    }
  });

  it("stores neither the session nor any call when cancelled while it stores", async () => {
    const { parsed, storer } = await openFileInWorker(lharFile(3_000));
    const pageStore = await IdbSessionStore.open();
    const controller = new AbortController();
    try {
      const { meta } = newSession({ entries: parsed.entries, leafId: parsed.leafId });
      storedIds.push(meta.id);
      const storing = storer!.store(meta, undefined, { signal: controller.signal });
      controller.abort();
      expect(await storing.catch((caught: unknown) => caught)).toBe(controller.signal.reason);
      expect(await pageStore.getMeta(meta.id)).toBeUndefined();
      expect((await pageStore.listCalls(meta.id)).calls).toEqual([]);
    } finally {
      storer?.close();
      pageStore.close();
    }
  });
});
