import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { flushSync, mount, unmount } from "svelte";
import { compose, type MessageSource } from "../src/lib/anatomy/composition.ts";
import type { TimelinePoint } from "../src/lib/anatomy/timeline.ts";
import TimelineChart from "../src/lib/anatomy/TimelineChart.svelte";
import { forEachModelMessage } from "../src/lib/messages/convert.ts";
import { convertToLlm } from "../src/lib/messages/convert.ts";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../src/lib/messages/policies.ts";
import { ModelViewProjector, projectModelView } from "../src/lib/model-view/project.ts";
import { IdbSessionStore } from "../src/lib/storage/idb-store.ts";
import { defaultSettings } from "../src/lib/agent/session-settings.ts";
import { chainEntries, pathTo, relinkOrphans, type SessionEntry } from "../src/lib/messages/entries.ts";
import { buildTree } from "../src/lib/model-view/session-tree.ts";
import { projectSession, SessionProjector } from "../src/lib/model-view/session-projection.ts";
import { SCHEMA_VERSION, type NewCall, type SessionMeta } from "../src/lib/storage/records.ts";
import { zeroUsage } from "../src/shared/usage.ts";
import { syntheticFacts, syntheticTree } from "./synthetic-session.ts";

/**
 * Benchmarks that run inside Chromium on the playground's own modules, exposed as `window.piBench` for
 * the runner. Each returns raw samples (milliseconds); the runner computes medians, spreads and ratios.
 */

const SETTINGS: ContextSettings = {
  ...DEFAULT_CONTEXT_SETTINGS,
  policies: { notification: "userText", approval_request: "hidden", progress: "hidden" },
};

/** Milliseconds per call, repeating the call until the clock (coarsened to 0.1 ms in browsers) can resolve it. */
function time(work: () => unknown, minimumMs = 25): number {
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    work();
    calls++;
    elapsed = performance.now() - started;
  } while (elapsed < minimumMs);
  return elapsed / calls;
}

/**
 * The model view after a change, as the session computes it: the path of entries, projected (compaction,
 * edits), then convertToLlm, each step with the provenance the inspector shows.
 * - `subject`: after one fact is appended, through the session's incremental projectors (the common case:
 *   every message of a run).
 * - `rebuild`: the same from scratch with warm caches (a branch switch, an edit, a policy change).
 * - `cold`: from scratch with every entry a new object (a session just loaded), one call each.
 * The floor is a plain convertToLlm over the same facts.
 */
export function modelView(
  count: number,
  runs: number,
): { subject: number[]; rebuild: number[]; floor: number[]; cold: number[]; coldFloor: number[] } {
  const facts = syntheticFacts(count);
  const path = chainEntries(facts, null);
  const full = (entries: SessionEntry[]) => projectModelView(projectSession(entries, SETTINGS), SETTINGS);
  const subject: number[] = [];
  const rebuild: number[] = [];
  const floor: number[] = [];
  const cold: number[] = [];
  const coldFloor: number[] = [];
  full(path);
  convertToLlm(facts, SETTINGS.policies);
  for (let run = 0; run < runs; run++) {
    const added = {
      role: "user",
      content: [{ type: "text", text: `run ${run}` }],
      timestamp: run,
    } as AgentMessage;
    const next = [...path, ...chainEntries([added], path.at(-1)?.id ?? null)];
    const nextFacts = [...facts, added];
    // The session's projectors, holding the view before the append (set up untimed).
    const sessionProjector = new SessionProjector();
    const viewProjector = new ModelViewProjector();
    viewProjector.project(sessionProjector.project(path, SETTINGS), SETTINGS);
    const started = performance.now();
    const view = viewProjector.project(sessionProjector.project(next, SETTINGS), SETTINGS);
    subject.push(performance.now() - started);
    if (view.fates.length !== count + 1) throw new Error("the incremental view missed the new fact");
    rebuild.push(time(() => full(next)));
    floor.push(time(() => convertToLlm(nextFacts, SETTINGS.policies)));
    // Cold: every entry is a new object (a freshly loaded session), so nothing is cached; one call each.
    const fresh = chainEntries(syntheticFacts(count, run + 2), null);
    cold.push(time(() => full(fresh), 0));
    // Its floor is as cold: convertToLlm's first pass over facts it has never seen.
    const freshFacts = syntheticFacts(count, run + 2);
    coldFloor.push(time(() => convertToLlm(freshFacts, SETTINGS.policies), 0));
  }
  return { subject, rebuild, floor, cold, coldFloor };
}

const DB_SAMPLE = 21;

function meta(id: string, count: number): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: id,
    titleIsCustom: true,
    createdAt: 0,
    updatedAt: 0,
    messageCount: count,
    nextSeq: count,
    revision: 0,
    leafId: null,
    settings: defaultSettings(),
  };
}

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

/**
 * The anatomy's composition of one request of `count` facts, as the Anatomy tab makes it: the next call
 * (live: the model view's message objects, the same each time) and a recorded call (its messages read
 * from storage: new objects each time, nothing cached). The floor is plain convertToLlm of the facts.
 */
export function anatomyComposition(
  count: number,
  runs: number,
): { live: number[]; recorded: number[]; floor: number[] } {
  const facts = syntheticFacts(count);
  const messages: Message[] = [];
  const sources: MessageSource[] = [];
  forEachModelMessage(facts, SETTINGS.policies, (message, index) => {
    messages.push(message);
    sources.push({ entryId: `entry-${index}`, role: facts[index]?.role });
  });
  const usage = {
    input: 2_000,
    output: 100,
    cacheRead: 180_000,
    cacheWrite: 1_000,
    totalTokens: 183_100,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const result = { live: [] as number[], recorded: [] as number[], floor: [] as number[] };
  compose(messages, sources);
  for (let run = 0; run < runs; run++) {
    result.live.push(time(() => compose(messages, sources)));
    const stored = structuredClone(messages);
    result.recorded.push(time(() => compose(stored, sources, usage), 0));
    result.floor.push(time(() => convertToLlm(facts, SETTINGS.policies)));
  }
  return result;
}

/** Timeline points of `count` calls: a context growing to a 200k window, a compaction every 100 calls. */
function syntheticPoints(count: number): TimelinePoint[] {
  let cumulativeCost = 0;
  return Array.from({ length: count }, (_, index) => {
    const cost = 0.002 + (index % 7) * 0.0005;
    cumulativeCost += cost;
    return {
      number: index + 1,
      seq: index,
      tokens: 4_000 + (index % 100) * 1_500,
      basis: index % 10 === 9 ? "estimate" : "usage",
      cached: index % 10 === 9 ? 0 : 3_000 + (index % 100) * 1_400,
      window: 200_000,
      cost,
      cumulativeCost,
      changes:
        index > 0 && index % 100 === 0
          ? [{ kind: "compaction", text: "compacted: 152,500 tokens before", entryId: `c${index}` }]
          : [],
      label: "anthropic/claude-sonnet",
    } satisfies TimelinePoint;
  });
}

/**
 * The timeline of `count` calls rendered: the Anatomy tab's own component mounted into the page at 640 px,
 * laid out and painted once (its layout read back), then removed. One sample per mount.
 */
export function timelineRender(count: number, runs: number): { subject: number[]; circles: number } {
  const points = syntheticPoints(count);
  const host = document.createElement("div");
  host.style.width = "640px";
  document.body.append(host);
  const subject: number[] = [];
  let circles = 0;
  for (let run = 0; run < runs + 1; run++) {
    const started = performance.now();
    const chart = mount(TimelineChart, {
      target: host,
      props: { points, pending: [], selected: "next", fromReplies: false, onselect: () => undefined },
    });
    flushSync();
    void host.getBoundingClientRect().height;
    const elapsed = performance.now() - started;
    circles = host.querySelectorAll("circle").length;
    void unmount(chart);
    flushSync();
    // The first mount also compiles the component's code: left out, as the app pays it once.
    if (run > 0) subject.push(elapsed);
  }
  host.remove();
  return { subject, circles };
}

declare global {
  interface Window {
    piBench: {
      modelView: typeof modelView;
      idbAppend: typeof idbAppend;
      sessionOpen: typeof sessionOpen;
      callAppend: typeof callAppend;
      plantCalls: typeof plantCalls;
      syntheticFacts: typeof syntheticFacts;
      plantSession: typeof plantSession;
      idbAppendTree: typeof idbAppendTree;
      treeOpen: typeof treeOpen;
      anatomyComposition: typeof anatomyComposition;
      timelineRender: typeof timelineRender;
    };
  }
}

window.piBench = {
  modelView,
  idbAppend,
  sessionOpen,
  callAppend,
  plantCalls,
  syntheticFacts,
  plantSession,
  idbAppendTree,
  treeOpen,
  anatomyComposition,
  timelineRender,
};
