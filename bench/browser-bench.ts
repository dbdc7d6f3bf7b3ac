import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { flushSync, mount, unmount } from "svelte";
import { compose, type MessageSource } from "../src/lib/anatomy/composition.ts";
import type { TimelinePoint } from "../src/lib/anatomy/timeline.ts";
import TimelineChart from "../src/lib/anatomy/TimelineChart.svelte";
import { forEachModelMessage } from "../src/lib/messages/convert.ts";
import { convertToLlm } from "../src/lib/messages/convert.ts";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from "../src/lib/messages/policies.ts";
import { projectModelView } from "../src/lib/model-view/project.ts";
import { IdbSessionStore } from "../src/lib/storage/idb-store.ts";
import { defaultSettings } from "../src/lib/agent/session-settings.ts";
import { chainEntries, type SessionEntry } from "../src/lib/messages/entries.ts";
import { projectSession } from "../src/lib/model-view/session-projection.ts";
import { SCHEMA_VERSION, type SessionMeta } from "../src/lib/storage/records.ts";
import { syntheticFacts } from "./synthetic-session.ts";

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
 * Model view recompute, as the inspector does it after each change: the facts array is replaced with
 * one more fact, all earlier fact objects unchanged. The floor is a plain convertToLlm over the same facts.
 */
export function modelView(
  count: number,
  runs: number,
): { subject: number[]; floor: number[]; cold: number[] } {
  // The session's pipeline: the path of entries, projected (compaction, edits), then convertToLlm.
  const facts = syntheticFacts(count);
  const path = chainEntries(facts, null);
  const view = (entries: SessionEntry[]) => projectModelView(projectSession(entries, SETTINGS), SETTINGS);
  const subject: number[] = [];
  const floor: number[] = [];
  const cold: number[] = [];
  view(path);
  convertToLlm(facts, SETTINGS.policies);
  for (let run = 0; run < runs; run++) {
    const added = {
      role: "user",
      content: [{ type: "text", text: `run ${run}` }],
      timestamp: run,
    } as AgentMessage;
    const next = [...path, ...chainEntries([added], path.at(-1)?.id ?? null)];
    const nextFacts = [...facts, added];
    subject.push(time(() => view(next)));
    floor.push(time(() => convertToLlm(nextFacts, SETTINGS.policies)));
    // Cold: every entry is a new object (a freshly loaded session), so nothing is cached; one call each.
    const fresh = chainEntries(syntheticFacts(count, run + 2), null);
    cold.push(time(() => view(fresh), 0));
  }
  return { subject, floor, cold };
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
  for (let run = 0; run < runs + 1; run++) {
    let started = performance.now();
    const loaded = await store.loadSession(id);
    const opened = performance.now() - started;
    if (loaded?.records.length !== count)
      throw new Error(`expected ${count} facts, loaded ${loaded?.records.length}`);
    started = performance.now();
    await new Promise<void>((resolve) => {
      const request = raw
        .transaction("entries", "readonly")
        .objectStore("entries")
        .getAll(IDBKeyRange.bound([id, -1], [id, Number.MAX_SAFE_INTEGER]));
      request.onsuccess = () => resolve();
    });
    const baseline = performance.now() - started;
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
      syntheticFacts: typeof syntheticFacts;
      anatomyComposition: typeof anatomyComposition;
      timelineRender: typeof timelineRender;
    };
  }
}

window.piBench = { modelView, idbAppend, sessionOpen, syntheticFacts, anatomyComposition, timelineRender };
