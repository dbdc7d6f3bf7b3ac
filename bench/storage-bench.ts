import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { convertToLlm } from "../src/lib/messages/convert.ts";
import { projectModelView } from "../src/lib/model-view/project.ts";
import { IdbSessionStore } from "../src/lib/storage/idb-store.ts";
import { chainEntries, pathTo, relinkOrphans, type SessionEntry } from "../src/lib/messages/entries.ts";
import { buildTree } from "../src/lib/model-view/session-tree.ts";
import { projectSession } from "../src/lib/model-view/session-projection.ts";
import type { NewCall } from "../src/lib/storage/records.ts";
import { zeroUsage } from "../src/shared/usage.ts";
import { syntheticFacts, syntheticTree } from "./synthetic-session.ts";
import { meta, SETTINGS } from "./bench-support.ts";

/** Storage in the browser: appending, opening, planting sessions and calls for the app benchmarks. */

const DB_SAMPLE = 21;

/** The whole-transcript rewrite that pi's old web UI did: one record holding every message, put again per message. */
function rewriteStore(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("bench-rewrite", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("sessions");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function putWhole(db: IDBDatabase, id: string, messages: AgentMessage[]): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction("sessions", "readwrite");
    tx.objectStore("sessions").put({ id, messages }, id);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  return performance.now() - started;
}

/**
 * Appending message #10 and message #10,000 (one transaction each, as the playground stores every final
 * message), against rewriting the whole transcript at the same two sizes.
 */
export async function idbAppend(
  runs: number,
): Promise<{ at10: number[]; at10k: number[]; rewriteAt10: number[]; rewriteAt10k: number[] }> {
  const store = await IdbSessionStore.open();
  const rewrite = await rewriteStore();
  // One path of entries, each the child of the one before, as the transcript appends them.
  const facts = chainEntries(syntheticFacts(10_000 + DB_SAMPLE), null);
  const result = {
    at10: [] as number[],
    at10k: [] as number[],
    rewriteAt10: [] as number[],
    rewriteAt10k: [] as number[],
  };
  for (let run = 0; run < runs; run++) {
    const small = `append-small-${run}-${Date.now()}`;
    await store.createSession(meta(small, 0), []);
    for (let index = 0; index < 10 + DB_SAMPLE / 2; index++) {
      const started = performance.now();
      await store.write(small, { append: [facts[index] as (typeof facts)[number]] });
      if (index >= 10 - DB_SAMPLE / 2) result.at10.push(performance.now() - started);
    }
    const large = `append-large-${run}-${Date.now()}`;
    const prefix = 10_000 - Math.floor(DB_SAMPLE / 2);
    await store.createSession(meta(large, 0), facts.slice(0, prefix));
    for (let index = prefix; index < prefix + DB_SAMPLE; index++) {
      const started = performance.now();
      await store.write(large, { append: [facts[index] as (typeof facts)[number]] });
      result.at10k.push(performance.now() - started);
    }
    const messages = facts.map((entry) => entry.message);
    result.rewriteAt10.push(await putWhole(rewrite, `small-${run}`, messages.slice(0, 10)));
    result.rewriteAt10k.push(await putWhole(rewrite, `large-${run}`, messages.slice(0, 10_000)));
    await store.deleteSession(small);
    await store.deleteSession(large);
  }
  store.close();
  rewrite.close();
  return result;
}

/** Opening a stored session (read, migrate, validate every record) against one raw getAll of the same records. */
export async function sessionOpen(
  count: number,
  runs: number,
): Promise<{ subject: number[]; floor: number[] }> {
  const store = await IdbSessionStore.open();
  const id = `open-${count}-${Date.now()}`;
  await store.createSession(meta(id, 0), chainEntries(syntheticFacts(count), null));
  const raw = await new Promise<IDBDatabase>((resolve) => {
    const request = indexedDB.open("pi-playground");
    request.onsuccess = () => resolve(request.result);
  });
  const subject: number[] = [];
  const floor: number[] = [];
  const open = async (): Promise<number> => {
    const started = performance.now();
    const loaded = await store.loadSession(id);
    const took = performance.now() - started;
    if (loaded?.records.length !== count)
      throw new Error(`expected ${count} facts, loaded ${loaded?.records.length}`);
    return took;
  };
  const getAll = async (): Promise<number> => {
    const started = performance.now();
    // Reading the result is what turns the stored records into values (Chromium does it on first access):
    // a getAll nobody reads is not a read, and was a floor no reader can reach.
    const read = await new Promise<number>((resolve) => {
      const request = raw
        .transaction("entries", "readonly")
        .objectStore("entries")
        .getAll(IDBKeyRange.bound([id, -1], [id, Number.MAX_SAFE_INTEGER]));
      request.onsuccess = () => resolve((request.result as unknown[]).length);
    });
    const took = performance.now() - started;
    if (read !== count) throw new Error(`getAll read ${read} records, expected ${count}`);
    return took;
  };
  for (let run = 0; run < runs + 1; run++) {
    // Alternating which goes first: the second read of the same records finds the browser's caches warm.
    let opened: number;
    let baseline: number;
    if (run % 2 === 0) {
      opened = await open();
      baseline = await getAll();
    } else {
      baseline = await getAll();
      opened = await open();
    }
    if (run > 0) {
      subject.push(opened);
      floor.push(baseline);
    }
  }
  await store.deleteSession(id);
  store.close();
  raw.close();
  return { subject, floor };
}

/**
 * Plant a session of `count` facts for the app to open: the app's own system message (from the session it
 * created on first open) and then the synthetic facts, stored as the app stores them. Returns its id.
 */
export async function plantSession(count: number, currentId: string): Promise<string> {
  const store = await IdbSessionStore.open();
  try {
    const current = await store.loadSession(currentId);
    const first = current?.records[0]?.entry;
    if (!current || first?.type !== "message") throw new Error("the app's own session was not found");
    const facts = [first.message, ...syntheticFacts(count).slice(1)];
    const id = `bench-${count}-${Date.now()}`;
    await store.createSession(
      { ...meta(id, facts.length), title: `Bench ${count}`, settings: current.meta.settings },
      chainEntries(facts, null),
    );
    return id;
  } finally {
    store.close();
  }
}

/** A model call as the recorder stores it, with the body of a mid-sized conversation (20 messages). */
function benchCall(index: number, messages: Message[]): NewCall {
  return {
    summary: {
      id: `bench-call-${index}-${Date.now()}`,
      startedAt: Date.now(),
      provider: "mirror",
      modelId: "mirror",
      api: "mirror",
      options: { sessionId: "bench" },
      messageCount: messages.length,
      leafId: null,
      outcome: { stopReason: "stop", usage: zeroUsage() },
      timing: { firstTokenMs: 40, durationMs: 400, outputTokensPerSecond: 60 },
      capture: { messages: "all", payload: "all" },
    },
    body: {
      messages: { kept: "all", value: messages, bytes: JSON.stringify(messages).length },
      sources: messages.map(() => null),
      payload: {
        kept: "all",
        value: { model: "mirror", messages, options: {} },
        bytes: JSON.stringify(messages).length + 40,
      },
    },
  };
}

/**
 * Recording a model call (summary and body in one transaction, as the recorder stores each call) as the
 * session's call #10 and as its call #1,000: a session's calls must cost the same to extend however many
 * it has.
 */
export async function callAppend(runs: number): Promise<{ at10: number[]; at1000: number[] }> {
  const store = await IdbSessionStore.open();
  const result = { at10: [] as number[], at1000: [] as number[] };
  const half = Math.floor(DB_SAMPLE / 2);
  const messages = convertToLlm(syntheticFacts(20), SETTINGS.policies);
  for (let run = 0; run < runs; run++) {
    const id = `call-append-${run}-${Date.now()}`;
    await store.createSession(meta(id, 0), []);
    for (let index = 0; index < 1_000 + half; index++) {
      const call = benchCall(index, messages);
      const started = performance.now();
      await store.appendCall(id, call);
      const took = performance.now() - started;
      if (Math.abs(index - 10) <= half) result.at10.push(took);
      if (Math.abs(index - 1_000) <= half) result.at1000.push(took);
    }
    await store.deleteSession(id);
  }
  store.close();
  return result;
}

/**
 * Appending entry #10 and entry #10,000 to a session that is a tree (100 branches, with model, thinking,
 * label and context-edit entries among the messages), one transaction each with the leaf, as the
 * session's writer stores them.
 */
export async function idbAppendTree(runs: number): Promise<{ at10: number[]; at10k: number[] }> {
  const store = await IdbSessionStore.open();
  const { entries } = syntheticTree(10_000 + DB_SAMPLE, 100);
  const result = { at10: [] as number[], at10k: [] as number[] };
  const append = async (id: string, entry: SessionEntry) => {
    const started = performance.now();
    await store.write(id, { append: [entry], leafId: entry.id });
    return performance.now() - started;
  };
  for (let run = 0; run < runs; run++) {
    const small = `tree-small-${run}-${Date.now()}`;
    await store.createSession(meta(small, 0), []);
    for (let index = 0; index < 10 + DB_SAMPLE / 2; index++) {
      const took = await append(small, entries[index] as SessionEntry);
      if (index >= 10 - DB_SAMPLE / 2) result.at10.push(took);
    }
    const large = `tree-large-${run}-${Date.now()}`;
    const prefix = 10_000 - Math.floor(DB_SAMPLE / 2);
    await store.createSession(meta(large, 0), entries.slice(0, prefix));
    for (let index = prefix; index < prefix + DB_SAMPLE; index++)
      result.at10k.push(await append(large, entries[index] as SessionEntry));
    await store.deleteSession(small);
    await store.deleteSession(large);
  }
  store.close();
  return result;
}

/** Record `count` calls in a stored session (for opening the calls view of a long session). */
export async function plantCalls(sessionId: string, count: number): Promise<void> {
  const store = await IdbSessionStore.open();
  const messages = convertToLlm(syntheticFacts(20), SETTINGS.policies);
  for (let index = 0; index < count; index++) await store.appendCall(sessionId, benchCall(index, messages));
  store.close();
}

/**
 * Opening a session as the page does (read and validate every record, index the entries, walk the path
 * to the leaf, project it as pi does, convert it for the model, and build the tree for the tree view):
 * a 10,000-entry tree with 100 branches against a flat session of 10,000 entries.
 */
export async function treeOpen(runs: number): Promise<{ tree: number[]; flat: number[] }> {
  const store = await IdbSessionStore.open();
  const branched = syntheticTree(10_000, 100);
  const straight = chainEntries(syntheticFacts(10_000), null);
  const treeId = `open-tree-${Date.now()}`;
  const flatId = `open-flat-${Date.now()}`;
  await store.createSession({ ...meta(treeId, 0), leafId: branched.leafId }, branched.entries);
  await store.createSession({ ...meta(flatId, 0), leafId: straight.at(-1)?.id ?? null }, straight);
  const open = async (id: string): Promise<number> => {
    const started = performance.now();
    const loaded = await store.loadSession(id);
    if (loaded?.records.length !== 10_000)
      throw new Error(`expected 10,000 entries, loaded ${loaded?.records.length}`);
    const entries = relinkOrphans(loaded.records.map((record) => record.entry));
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const path = pathTo(byId, loaded.meta.leafId);
    projectModelView(projectSession(path, SETTINGS), SETTINGS);
    buildTree(entries);
    return performance.now() - started;
  };
  const result = { tree: [] as number[], flat: [] as number[] };
  for (let run = 0; run < runs + 1; run++) {
    // Alternating, so that neither side always runs on a warmer engine.
    const tree = await open(treeId);
    const flat = await open(flatId);
    if (run > 0) {
      result.tree.push(tree);
      result.flat.push(flat);
    }
  }
  await store.deleteSession(treeId);
  await store.deleteSession(flatId);
  store.close();
  return result;
}
