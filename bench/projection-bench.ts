import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { flushSync, mount, unmount } from "svelte";
import { compose, type MessageSource } from "../src/lib/anatomy/composition.ts";
import type { TimelinePoint } from "../src/lib/anatomy/timeline.ts";
import TimelineChart from "../src/lib/anatomy/TimelineChart.svelte";
import { forEachModelMessage } from "../src/lib/messages/convert.ts";
import { convertToLlm } from "../src/lib/messages/convert.ts";
import { ModelViewProjector, projectModelView } from "../src/lib/model-view/project.ts";
import { chainEntries, type SessionEntry } from "../src/lib/messages/entries.ts";
import { projectSession } from "../src/lib/model-view/session-projection.ts";
import { SessionProjector } from "../src/lib/model-view/session-projector.ts";
import { syntheticFacts } from "./synthetic-session.ts";
import { collectGarbage, SETTINGS, time } from "./bench-support.ts";

/** What the page computes from a session: the model view, the anatomy's composition, its timeline. */

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
    // Each starts with the garbage of making its input collected: a single call is otherwise timed with
    // whatever collection the allocations before it happen to trigger.
    const fresh = chainEntries(syntheticFacts(count, run + 2), null);
    collectGarbage();
    cold.push(time(() => full(fresh), 0));
    // Its floor is as cold: convertToLlm's first pass over facts it has never seen.
    const freshFacts = syntheticFacts(count, run + 2);
    collectGarbage();
    coldFloor.push(time(() => convertToLlm(freshFacts, SETTINGS.policies), 0));
  }
  return { subject, rebuild, floor, cold, coldFloor };
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
    collectGarbage();
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
